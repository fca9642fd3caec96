import {
  decideHealth,
  QUORUM_WINDOW_MS,
  quorumVerdict,
  type HealthPolicy,
} from '../../../health/health-decision.ts';
import type { MemberSource, MemberStatusSink, RecordedHealth } from '../../../health/health-checker.ts';
import type { HealthTarget, ProbeMode, ProbeResult } from '../../../health/health-target.ts';
import type { MemberHealthRepository, TargetColumns } from './member-health-repository.ts';
import { healthWord } from '../shared/member-health-word.ts';

const PROBE_MODES: readonly ProbeMode[] = ['http', 'https', 'tcp'];

/** The probe a member asks for; null for `health_mode` none (healthy without checks). */
export function healthTargetOf(row: TargetColumns): HealthTarget | null {
  if (!(PROBE_MODES as readonly string[]).includes(row.health_mode)) return null;
  return {
    memberId: Number(row.id),
    zoneId: Number(row.zone_id),
    poolId: Number(row.pool_id),
    address: row.address,
    mode: row.health_mode as ProbeMode,
    path: row.health_path === '' ? '/' : row.health_path,
    port: row.health_port,
    timeoutS: row.health_timeout_s,
  };
}

/** Probes and decision changes older than this are deleted (the history keeps 7 days). */
export const HEALTH_HISTORY_MS = 7 * 86_400_000;

/**
 * The members table as the health checker sees it: which members to probe (every member with a
 * check, enabled or not, so a re-enabled origin comes back with a fresh status) and where results
 * go. Each probe is kept with this checker's PoP, and the member's `health_status` is decided over
 * the latest probe of every PoP (health-decision.ts). Writing a result is not a zone change: the
 * serial and updated_at stay, and the data plane learns of it from the member-health channel.
 */
export class DbMemberHealthStore implements MemberSource, MemberStatusSink {
  constructor(
    private readonly repo: MemberHealthRepository,
    private readonly pop: string,
    private readonly policy: HealthPolicy,
  ) {}

  async listTargets(): Promise<HealthTarget[]> {
    const rows = await this.repo.targets(PROBE_MODES);
    return rows.map(healthTargetOf).filter((t): t is HealthTarget => t !== null);
  }

  /**
   * Stores the probe, decides the member's status over every PoP's latest probe and records a
   * change; one transaction with the member row locked, so concurrent checkers serialise.
   */
  async record(target: HealthTarget, result: ProbeResult): Promise<RecordedHealth | null> {
    return this.repo.inTransaction(async (repo) => {
      const member = await repo.lockHealth(target.memberId);
      if (member === null) return null;
      const at = new Date(result.checkedAt);
      await repo.insertProbe({
        member_id: target.memberId,
        pop: this.pop,
        at,
        status: result.status,
        latency_ms: result.latencyMs,
        error: result.error,
      });
      const windowStart = Math.max(
        result.checkedAt - QUORUM_WINDOW_MS,
        member.health_reset_at?.getTime() ?? Number.NEGATIVE_INFINITY,
      );
      const latest = await repo.latestByPop(target.memberId, new Date(windowStart));
      const previous = healthWord(member.health_status);
      // The pool's flap damping where it sets one, else the deployment's (HEALTH_FALL/HEALTH_RISE).
      const policy: HealthPolicy = {
        quorum: this.policy.quorum,
        fall: member.health_fall === null ? this.policy.fall : Number(member.health_fall),
        rise: member.health_rise === null ? this.policy.rise : Number(member.health_rise),
      };
      const decision = decideHealth(
        { status: previous, streak: member.health_streak },
        quorumVerdict(latest, policy.quorum),
        policy,
      );
      await repo.setHealth(target.memberId, {
        health_status: decision.status,
        health_streak: decision.streak,
        last_check_at: at,
        last_error: result.error,
      });
      if (decision.change !== null)
        await repo.insertChange({
          member_id: target.memberId,
          at,
          from_status: decision.change.from,
          to_status: decision.change.to,
          reason: decision.change.reason,
        });
      // The history keeps 7 days: each write trims its own member's tail.
      await repo.trimHistory(target.memberId, new Date(result.checkedAt - HEALTH_HISTORY_MS));
      return { previous, status: decision.status };
    });
  }
}
