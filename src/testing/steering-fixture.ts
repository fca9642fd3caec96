import type {
  HealthView,
  MemberHealth,
  SteeringLoadBalancer,
  SteeringMember,
  SteeringPool,
} from '../dns/index.ts';

/** Builders for steering tests: sensible defaults, override what the case is about. */

export function member(id: number, address: string, over: Partial<SteeringMember> = {}): SteeringMember {
  return {
    id,
    address,
    family: address.includes(':') ? 6 : 4,
    weight: 1,
    priority: 0,
    enabled: true,
    ...over,
  };
}

export function pool(id: number, members: SteeringMember[], over: Partial<SteeringPool> = {}): SteeringPool {
  return {
    id,
    name: `pool-${id}`,
    algorithm: 'weighted_rr',
    enabled: true,
    sessionAffinity: 'none',
    primaryLocation: null,
    members,
    ...over,
  };
}

export function loadBalancer(over: Partial<SteeringLoadBalancer> = {}): SteeringLoadBalancer {
  return {
    id: 1,
    name: 'lb',
    hostname: 'www.example.com',
    ttl: 30,
    enabled: true,
    sessionAffinity: 'none',
    policy: 'off',
    locationStrategy: 'pop',
    defaultPools: [],
    fallbackPoolId: null,
    regionPools: {},
    countryPools: {},
    locationPools: {},
    onAllUnhealthy: 'serve_last',
    ...over,
  };
}

export function poolMap(pools: readonly SteeringPool[]): Map<number, SteeringPool> {
  return new Map(pools.map((p) => [p.id, p]));
}

/** Health from a plain record; members not listed are `unknown`. */
export function healthOf(statuses: Readonly<Record<number, MemberHealth>> = {}): HealthView {
  return { statusOf: (id) => statuses[id] ?? 'unknown' };
}
