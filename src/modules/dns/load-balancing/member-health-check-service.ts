import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { memberNotFound, poolNotFound } from '../dns-errors.ts';
import { runCheck, type CheckDeps } from '../../../health/health-checker.ts';
import type { HealthTarget, ProbeResult } from '../../../health/health-target.ts';
import type { Clock } from '../../../kernel/clock.ts';
import type { PoolsRepository } from './pools-repository.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { healthTargetOf } from './member-health-store.ts';
import type { MembersRepository } from './members-repository.ts';
import type { HealthCheckView } from './member-view.ts';
import { readHealthHistory, type HealthHistoryView } from './member-health-history.ts';
import type { Kysely } from 'kysely';
import type { DnsTables } from '../dns-tables.ts';

/**
 * A member's health for its owner. "Run a check now": probes the member from this (API) process
 * as a probe of this process's PoP, stores it and decides and publishes exactly as a scheduled
 * probe does. A member without a check (`health_mode` none) is healthy without traffic. The
 * history: the latest probes by PoP and the decision changes.
 */
export class MemberHealthCheckService {
  constructor(
    private readonly zones: ZonesRepository,
    private readonly pools: PoolsRepository,
    private readonly members: MembersRepository,
    private readonly db: Kysely<DnsTables>,
    private readonly clock: Clock,
    private readonly pop: string,
    private readonly deps: CheckDeps,
  ) {}

  async check(owner: OwnerScope, zoneId: number, poolId: number, memberId: number): Promise<HealthCheckView> {
    const member = await this.findMember(owner, zoneId, poolId, memberId);
    const target = healthTargetOf(member);
    const { result, status } =
      target !== null
        ? await runCheck(target, this.deps)
        : await runCheck(noCheckTarget(member.id, member.zone_id, member.pool_id), {
            ...this.deps,
            probe: this.healthyWithoutProbe,
          });
    return {
      member_id: Number(member.id),
      health_status: status ?? result.status,
      probe_status: result.status,
      pop: this.pop,
      last_check_at: new Date(result.checkedAt).toISOString(),
      last_error: result.error,
      latency_ms: result.latencyMs,
    };
  }

  async history(
    owner: OwnerScope,
    zoneId: number,
    poolId: number,
    memberId: number,
    limit: number,
  ): Promise<HealthHistoryView> {
    const member = await this.findMember(owner, zoneId, poolId, memberId);
    return readHealthHistory(this.db, Number(member.id), limit);
  }

  private async findMember(owner: OwnerScope, zoneId: number, poolId: number, memberId: number) {
    const zone = await this.zones.findAccessible(owner, zoneId);
    const pool = await this.pools.find(zone.id, poolId);
    if (!pool) throw poolNotFound();
    const member = await this.members.find(pool.id, memberId);
    if (!member) throw memberNotFound();
    return member;
  }

  private readonly healthyWithoutProbe = async (): Promise<ProbeResult> => ({
    status: 'healthy',
    error: null,
    latencyMs: null,
    checkedAt: this.clock.now(),
  });
}

/** A stand-in target for storing a `none` member's result: it is never probed. */
function noCheckTarget(memberId: number, zoneId: number, poolId: number): HealthTarget {
  return {
    memberId: Number(memberId),
    zoneId: Number(zoneId),
    poolId: Number(poolId),
    address: '',
    mode: 'tcp',
    path: '/',
    port: null,
    timeoutS: 1,
  };
}
