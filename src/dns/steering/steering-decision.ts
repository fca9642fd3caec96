import type { SteeringMember, SteeringPool } from './steering-config.ts';

/**
 * What the steering function decided for one query, and (only when asked) why. The DNS server
 * and the control API's preview both read this shape, from the same function, so they agree.
 */

/** Which step of the cascade produced the answer; null when nothing was answered. */
export type CascadeHit =
  'location' | 'country' | 'region' | 'default' | 'fallback' | 'proximity' | 'serve_last' | null;

export type SteeringReason =
  'ok' | 'all_unhealthy_serve_last' | 'all_unhealthy' | 'no_members' | 'load_balancer_disabled';

/** Why a pool was passed over; null for the pool that answered. */
export type PoolSkipReason =
  | 'disabled'
  | 'no_members_of_family'
  | 'no_healthy_members'
  /** The id is not among the zone's pools (a dangling reference). */
  | 'unknown_pool'
  /** Usable, but another candidate of the same stage was chosen (random, proximity). */
  | 'not_chosen';

/** Trace stage names: the cascade hits plus `random` (the random choice among default pools). */
export type TraceStageName =
  'location' | 'country' | 'region' | 'default' | 'random' | 'proximity' | 'fallback' | 'serve_last';

export interface TracePool {
  readonly id: number;
  /** '' for an unknown pool id. */
  readonly name: string;
  readonly skipped: PoolSkipReason | null;
  /** Proximity only: km from the client to the pool's primary location; null when unknown. */
  readonly distanceKm?: number | null;
}

export interface TraceStage {
  readonly stage: TraceStageName;
  /** The key looked up in the stage's map (PoP, country, region code); null for list stages. */
  readonly key: string | null;
  readonly pools: TracePool[];
}

export interface SteeringDecision {
  readonly cascadeHit: CascadeHit;
  readonly reason: SteeringReason;
  /** true → the DNS answer is SERVFAIL. */
  readonly servfail: boolean;
  readonly pool: SteeringPool | null;
  /** The answer: one member normally, all enabled members of the family for serve_last, none else. */
  readonly members: readonly SteeringMember[];
  /** Answer TTL (the load balancer's ttl). */
  readonly ttl: number;
  /**
   * ECS SCOPE PREFIX-LENGTH to echo (RFC 7871 §7.2.1): the client subnet's prefix when the answer
   * depended on the client address (ECS-located or affinity-picked), else 0. Always 0 when the
   * context did not come from an ECS option.
   */
  readonly ecsScope: number;
  /** Stages in the order they were evaluated; empty unless steer was called with withTrace. */
  readonly trace: readonly TraceStage[];
}
