/**
 * The exact share of each answer at a load balancer for a client in a given place, computed by the
 * steering function itself (steer(), the one the DNS server runs), not by sampling: steer() draws
 * at most two uniform numbers (a random pool, a weighted member) and its answer is a step function
 * of each draw, every answer holding one interval. Those intervals are found by bisection, draw by
 * draw, to within 2^-50, so the shares are the intervals' lengths (exact to ~1e-15).
 *
 * With client_ip session affinity each client keeps one member, chosen by weighted rendezvous
 * hashing of its subnet: across the clients of a place the split is the weights', which is what
 * is reported (the share is computed as without affinity).
 */
import { steer } from '../../../dns/index.ts';
import type {
  ClientContext,
  HealthView,
  SteeringDecision,
  SteeringLoadBalancer,
  SteeringPool,
} from '../../../dns/index.ts';

const PRECISION = 2 ** -50;
/** steer() draws at most twice; a deeper draw would mean the engine changed and this must too. */
const MAX_DRAWS = 4;

export interface MemberShare {
  readonly memberId: number;
  readonly poolId: number;
  readonly address: string;
  readonly share: number;
}

export interface TrafficShare {
  /** Members that answer, largest share first (then by id). */
  readonly members: MemberShare[];
  /** SERVFAIL answers (every pool down, on_all_unhealthy servfail). */
  readonly servfailShare: number;
  /** Answers with no address (no pool has members of the family, or the load balancer is off). */
  readonly nodataShare: number;
}

interface Run {
  readonly decision: SteeringDecision;
  readonly draws: number;
  /** Identity of the answer: reason, pool, member ids. */
  readonly key: string;
}

export function exactTrafficShare(
  lb: SteeringLoadBalancer,
  pools: readonly SteeringPool[],
  ctx: ClientContext,
  family: 4 | 6,
  health: HealthView,
): TrafficShare {
  const noAffinity = { ...lb, sessionAffinity: 'none' as const };
  const poolsById = new Map(pools.map((p) => [p.id, { ...p, sessionAffinity: 'none' as const }]));
  const run = (draws: readonly number[]): Run => {
    let used = 0;
    const decision = steer(noAffinity, poolsById, ctx, family, health, () => draws[used++] ?? 0);
    const key = `${decision.reason}|${decision.pool?.id ?? ''}|${decision.members.map((m) => m.id).join(',')}`;
    return { decision, draws: used, key };
  };
  const outcomes = new Map<string, { decision: SteeringDecision; p: number }>();
  const add = (r: Run, p: number) => {
    const o = outcomes.get(r.key);
    if (o === undefined) outcomes.set(r.key, { decision: r.decision, p });
    else o.p += p;
  };
  /** Splits draw number `prefix.length` into the intervals of equal answers, `weight` being their total. */
  const explore = (prefix: number[], weight: number): void => {
    let u = 0;
    while (u < 1) {
      const first = run([...prefix, u]);
      if (first.draws <= prefix.length || prefix.length >= MAX_DRAWS) {
        add(first, weight * (1 - u));
        return;
      }
      let lo = u;
      let hi = 1;
      while (hi - lo > PRECISION) {
        const mid = (lo + hi) / 2;
        if (run([...prefix, mid]).key === first.key) lo = mid;
        else hi = mid;
      }
      // The interval [u, hi) of this draw leads to `first`'s answer with later draws at 0; later
      // draws are split in turn, from its middle.
      explore([...prefix, (u + hi) / 2], weight * (hi - u));
      u = hi;
    }
  };
  explore([], 1);

  const shares = new Map<number, MemberShare>();
  let servfailShare = 0;
  let nodataShare = 0;
  for (const { decision, p } of outcomes.values()) {
    if (decision.servfail) servfailShare += p;
    else if (decision.members.length === 0 || decision.pool === null) nodataShare += p;
    else {
      // serve_last answers every member of the pool: resolvers spread over them alike.
      const each = p / decision.members.length;
      for (const m of decision.members) {
        const s = shares.get(m.id);
        shares.set(m.id, {
          memberId: m.id,
          poolId: decision.pool.id,
          address: m.address,
          share: (s?.share ?? 0) + each,
        });
      }
    }
  }
  return {
    members: [...shares.values()].sort((a, b) => b.share - a.share || a.memberId - b.memberId),
    servfailShare,
    nodataShare,
  };
}
