import type { HealthView, SteeringMember, SteeringPool } from './steering-config.ts';
import type { PoolSkipReason } from './steering-decision.ts';
import { rendezvousUniform } from './subnet-key.ts';

/**
 * Member choice inside one pool. Loops over the member array only: no closures, no arrays built,
 * because this runs for every steered query.
 */

/** Enabled, of the asked family and not `unhealthy` (`unknown` counts as healthy). */
export function isCandidate(m: SteeringMember, family: 4 | 6, health: HealthView): boolean {
  return m.enabled && m.family === family && health.statusOf(m.id) !== 'unhealthy';
}

/** null when the pool can answer for `family`; otherwise why it cannot. */
export function poolSkipReason(pool: SteeringPool, family: 4 | 6, health: HealthView): PoolSkipReason | null {
  if (!pool.enabled) return 'disabled';
  let any = false;
  const ms = pool.members;
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!;
    if (!m.enabled || m.family !== family) continue;
    if (health.statusOf(m.id) !== 'unhealthy') return null;
    any = true;
  }
  return any ? 'no_healthy_members' : 'no_members_of_family';
}

/** true when the pool is enabled and holds at least one enabled member of `family`, healthy or not. */
export function poolHasMembersOf(pool: SteeringPool, family: 4 | 6): boolean {
  if (!pool.enabled) return false;
  const ms = pool.members;
  for (let i = 0; i < ms.length; i++) if (ms[i]!.enabled && ms[i]!.family === family) return true;
  return false;
}

/** Rendezvous score (lower wins): -ln(u)/weight, the weighted form that keeps moves minimal. */
export function rendezvousScore(key: number, id: number, weight: number): number {
  return -Math.log(rendezvousUniform(key, id)) / weight;
}

/**
 * One member of a usable pool (poolSkipReason null). `weighted_rr`: all candidates; `failover`:
 * the candidates of the lowest priority. Among those, weight-proportional: by `random` or, when
 * `affinityKey` is not null, by weighted rendezvous hashing on the client subnet.
 */
export function pickMember(
  pool: SteeringPool,
  family: 4 | 6,
  health: HealthView,
  random: () => number,
  affinityKey: number | null,
): SteeringMember | null {
  const ms = pool.members;
  const failover = pool.algorithm === 'failover';
  let minPriority = Infinity;
  let total = 0;
  let best: SteeringMember | null = null;
  let bestScore = Infinity;
  let candidates = 0;
  let only: SteeringMember | null = null;
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!;
    if (!isCandidate(m, family, health)) continue;
    if (failover && m.priority !== minPriority) {
      if (m.priority > minPriority) continue;
      minPriority = m.priority;
      total = 0;
      best = null;
      bestScore = Infinity;
      candidates = 0;
    }
    total += m.weight;
    candidates++;
    only = m;
    if (affinityKey !== null) {
      const s = rendezvousScore(affinityKey, m.id, m.weight);
      if (s < bestScore) {
        bestScore = s;
        best = m;
      }
    }
  }
  if (affinityKey !== null || total <= 0) return best;
  // One candidate: no draw (a decision without chance may be kept by an answer cache).
  if (candidates === 1) return only;
  let r = random() * total;
  let last: SteeringMember | null = null;
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!;
    if (!isCandidate(m, family, health) || (failover && m.priority !== minPriority)) continue;
    last = m;
    r -= m.weight;
    if (r < 0) return m;
  }
  // Only reachable through floating-point rounding at the top of the range.
  return last;
}
