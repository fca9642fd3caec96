/**
 * How a member's health is decided from probes: a quorum over the latest probe of each
 * PoP that probed it in the last QUORUM_WINDOW_MS, then flap damping — the status changes only
 * after `fall` (to unhealthy) or `rise` (to healthy) quorum verdicts in a row disagree with it
 * (1 and 1 by default: one verdict moves it; more is opted into per deployment or per pool).
 * A member whose status is still `unknown` takes its first verdict at once. Pure: the store
 * passes the probes and the stored state.
 */
import type { HealthStatus } from './health-target.ts';

/** A PoP's latest probe counts towards the quorum for this long (3 minutes: three intervals). */
export const QUORUM_WINDOW_MS = 180_000;

/** 'majority': unhealthy when more than half of the PoPs say so; N: when at least N do (at most all). */
export type HealthQuorum = 'majority' | number;

export interface HealthPolicy {
  readonly quorum: HealthQuorum;
  /** Unhealthy verdicts in a row that take a healthy member down. */
  readonly fall: number;
  /** Healthy verdicts in a row that bring an unhealthy member back. */
  readonly rise: number;
}

/** One failed check takes a member down, one passed check brings it back: damping is opted into. */
export const DEFAULT_HEALTH_POLICY: HealthPolicy = { quorum: 'majority', fall: 1, rise: 1 };

export type Verdict = 'healthy' | 'unhealthy';

/** The latest probe of one PoP. */
export interface PopProbe {
  readonly pop: string;
  readonly status: Verdict;
}

export interface QuorumVerdict {
  readonly status: Verdict;
  /** PoPs whose latest probe said unhealthy, in the order given. */
  readonly unhealthyPops: readonly string[];
  readonly pops: number;
}

/** The quorum's verdict over the latest probe of each PoP (at least one). */
export function quorumVerdict(latest: readonly PopProbe[], quorum: HealthQuorum): QuorumVerdict {
  const unhealthyPops = latest.filter((p) => p.status === 'unhealthy').map((p) => p.pop);
  const u = unhealthyPops.length;
  const n = latest.length;
  const down = quorum === 'majority' ? 2 * u > n : u >= Math.min(quorum, n);
  return { status: n > 0 && down ? 'unhealthy' : 'healthy', unhealthyPops, pops: n };
}

export interface StoredHealth {
  readonly status: HealthStatus;
  /** Verdicts in a row that disagreed with `status`. */
  readonly streak: number;
}

export interface HealthDecision extends StoredHealth {
  /** The change to record, or null when the status stays. */
  readonly change: { readonly from: HealthStatus; readonly to: Verdict; readonly reason: string } | null;
}

/** Applies one quorum verdict to the stored state. */
export function decideHealth(
  stored: StoredHealth,
  verdict: QuorumVerdict,
  policy: HealthPolicy,
): HealthDecision {
  const to = verdict.status;
  if (stored.status === to) return { status: to, streak: 0, change: null };
  if (stored.status === 'unknown')
    return {
      status: to,
      streak: 0,
      change: { from: 'unknown', to, reason: `first check: ${describe(verdict)}` },
    };
  const needed = to === 'unhealthy' ? policy.fall : policy.rise;
  const streak = stored.streak + 1;
  if (streak < needed) return { status: stored.status, streak, change: null };
  const inARow = needed > 1 ? `, ${needed} checks in a row` : '';
  return {
    status: to,
    streak: 0,
    change: { from: stored.status, to, reason: `${describe(verdict)}${inARow}` },
  };
}

/** "unhealthy at 2 of 3 PoPs (FRA, AMS)" / "healthy at 3 of 3 PoPs". */
function describe(v: QuorumVerdict): string {
  const u = v.unhealthyPops.length;
  if (v.status === 'unhealthy') return `unhealthy at ${u} of ${v.pops} PoPs (${v.unhealthyPops.join(', ')})`;
  const healthy = v.pops - u;
  return u === 0
    ? `healthy at ${healthy} of ${v.pops} PoPs`
    : `healthy at ${healthy} of ${v.pops} PoPs (unhealthy: ${v.unhealthyPops.join(', ')})`;
}
