import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { memberNotFound, poolNotFound } from '../load-balancing-errors.ts';
import { runCheck, type CheckDeps } from '../../../health/health-checker.ts';
import type { HealthTarget, ProbeResult } from '../../../health/health-target.ts';
import type { Clock } from '../../../kernel/clock.ts';
import type { PoolsRepository } from '../pools/pools-repository.ts';
import type { ZoneAccess } from '../../dns/index.ts';
import { healthTargetOf } from './member-health-store.ts';
import type { MembersRepository } from '../pools/members-repository.ts';
import type { HealthCheckView, HealthHistoryView } from './health-views.ts';
import { readHealthHistory } from './member-health-history.ts';
import type { MemberHealthRepository } from './member-health-repository.ts';

/**
 * A member's health for its owner. "Run a check now": probes the member from this (API) process
 * as a probe of this process's PoP, stores it and decides and publishes exactly as a scheduled
 * probe does. A member without a check (`health_mode` none) is healthy without traffic. The
 * history: the latest probes by PoP and the decision changes.
 */
export class MemberHealthCheckService {
  constructor(
    private readonly zones: ZoneAccess,
    private readonly pools: PoolsRepository,
    private readonly members: MembersRepository,
    private readonly healthRepo: MemberHealthRepository,
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
    return readHealthHistory(this.healthRepo, Number(member.id), limit);
  }

  private async findMember(owner: OwnerScope, zoneId: number, poolId: number, memberId: number) {
    const zone = await this.zones.find(owner, zoneId);
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
