/**
 * Load-balancing configuration as the data plane receives it with a zone (ZoneData.steering):
 * plain data compiled from the control plane's pools, members and load balancers. Health is not
 * here: it changes without a snapshot rebuild and comes through a HealthView.
 */
export type PoolAlgorithm = 'weighted_rr' | 'failover';
export type SessionAffinity = 'none' | 'client_ip';
export type SteeringPolicy = 'off' | 'random' | 'geo' | 'proximity';
export type LocationStrategy = 'pop' | 'resolver_ip';
export type OnAllUnhealthy = 'serve_last' | 'servfail';

export interface SteeringMember {
  readonly id: number;
  /** Canonical text form of the address (IPv4 dotted quad, IPv6 RFC 5952). */
  readonly address: string;
  readonly family: 4 | 6;
  /** 1–100. */
  readonly weight: number;
  /** 0 or more; lowest answers first in failover pools. */
  readonly priority: number;
  readonly enabled: boolean;
}

export interface SteeringPool {
  readonly id: number;
  readonly name: string;
  readonly algorithm: PoolAlgorithm;
  readonly enabled: boolean;
  readonly sessionAffinity: SessionAffinity;
  /** Where the pool's origins are, for proximity steering; null when unknown. */
  readonly primaryLocation: {
    readonly code: string;
    readonly latitude: number;
    readonly longitude: number;
  } | null;
  readonly members: readonly SteeringMember[];
}

export interface SteeringLoadBalancer {
  readonly id: number;
  readonly name: string;
  /** Stored-form FQDN (lower case, no trailing dot). */
  readonly hostname: string;
  readonly ttl: number;
  readonly enabled: boolean;
  readonly sessionAffinity: SessionAffinity;
  readonly policy: SteeringPolicy;
  readonly locationStrategy: LocationStrategy;
  readonly defaultPools: readonly number[];
  readonly fallbackPoolId: number | null;
  /** Region code → pool ids in order. */
  readonly regionPools: Readonly<Record<string, readonly number[]>>;
  /** ISO 3166-1 alpha-2 (upper case) → pool ids in order. */
  readonly countryPools: Readonly<Record<string, readonly number[]>>;
  /** PoP location code (upper case) → pool ids in order. */
  readonly locationPools: Readonly<Record<string, readonly number[]>>;
  readonly onAllUnhealthy: OnAllUnhealthy;
}

export interface ZoneSteering {
  readonly pools: readonly SteeringPool[];
  readonly loadBalancers: readonly SteeringLoadBalancer[];
}

export type MemberHealth = 'unknown' | 'healthy' | 'unhealthy';

/** Current health of members; `unknown` counts as healthy. */
export interface HealthView {
  statusOf(memberId: number): MemberHealth;
  /**
   * A number that changes whenever some statusOf() answer changes (MemberHealthTable's). Absent:
   * health may change unseen, so no answer that steering decided is kept in an answer cache.
   */
  readonly generation?: number;
}

declare module '../zone/zone-data.ts' {
  interface ZoneData {
    /** Pools and load balancers of the zone; absent or empty when it has none. */
    readonly steering?: ZoneSteering;
  }
}
