import type {
  LocationStrategy,
  OnAllUnhealthy,
  PoolAlgorithm,
  SessionAffinity,
  SteeringLoadBalancer,
  SteeringMember,
  SteeringPolicy,
  SteeringPool,
  ZoneSteering,
} from '../../../dns/index.ts';
import { locationByCode } from '../../../geo/geo-data.ts';
import { parseAddress } from '../../../net/address-class.ts';
import type { ZoneSteeringSource } from '../../dns/index.ts';
import type { LoadBalancerRow, MemberRow, PoolRow } from '../load-balancing-tables.ts';
import type { SteeringRepository } from './steering-repository.ts';

const parseJson = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function steeringMember(m: MemberRow): SteeringMember | null {
  const parsed = parseAddress(m.address);
  if (parsed === null) return null;
  return {
    id: Number(m.id),
    address: parsed.canonical,
    family: parsed.family,
    weight: m.weight,
    priority: m.priority,
    enabled: m.enabled,
  };
}

function steeringPool(p: PoolRow, members: readonly MemberRow[]): SteeringPool {
  const location = p.primary_location_code === null ? null : locationByCode(p.primary_location_code);
  return {
    id: Number(p.id),
    name: p.name,
    algorithm: p.algorithm as PoolAlgorithm,
    enabled: p.enabled,
    sessionAffinity: p.session_affinity as SessionAffinity,
    primaryLocation:
      location === null
        ? null
        : { code: location.code, latitude: location.latitude, longitude: location.longitude },
    members: members.map(steeringMember).filter((m): m is SteeringMember => m !== null),
  };
}

function steeringLoadBalancer(lb: LoadBalancerRow): SteeringLoadBalancer {
  return {
    id: Number(lb.id),
    name: lb.name,
    hostname: lb.hostname,
    ttl: lb.ttl,
    enabled: lb.enabled,
    sessionAffinity: lb.session_affinity as SessionAffinity,
    policy: lb.steering_policy as SteeringPolicy,
    locationStrategy: lb.location_strategy as LocationStrategy,
    defaultPools: parseJson(lb.default_pools),
    fallbackPoolId: lb.fallback_pool_id === null ? null : Number(lb.fallback_pool_id),
    regionPools: parseJson(lb.region_pools),
    countryPools: parseJson(lb.country_pools),
    locationPools: parseJson(lb.location_pools),
    onAllUnhealthy: lb.on_all_unhealthy as OnAllUnhealthy,
  };
}

function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(row);
  }
  return out;
}

/**
 * The load-balancing configuration as the data plane takes it (the DNS module's steering port):
 * zone id → ZoneSteering, for one zone or (zoneId undefined) every zone. Zones without pools or
 * load balancers are absent.
 */
export class SteeringLoader implements ZoneSteeringSource {
  constructor(private readonly repo: SteeringRepository) {}

  async load(zoneId?: number): Promise<Map<number, ZoneSteering>> {
    const [pools, members, lbs] = [
      await this.repo.pools(zoneId),
      await this.repo.members(zoneId),
      await this.repo.loadBalancers(zoneId),
    ];
    const membersByPool = groupBy(members, (m) => Number(m.pool_id));
    const poolsByZone = groupBy(pools, (p) => Number(p.zone_id));
    const lbsByZone = groupBy(lbs, (l) => Number(l.zone_id));
    const out = new Map<number, ZoneSteering>();
    for (const id of new Set([...poolsByZone.keys(), ...lbsByZone.keys()])) {
      out.set(id, {
        pools: (poolsByZone.get(id) ?? []).map((p) => steeringPool(p, membersByPool.get(Number(p.id)) ?? [])),
        loadBalancers: (lbsByZone.get(id) ?? []).map(steeringLoadBalancer),
      });
    }
    return out;
  }

  /** One zone's steering (empty lists when it has none). */
  async ofZone(zoneId: number): Promise<ZoneSteering> {
    return (await this.load(zoneId)).get(zoneId) ?? { pools: [], loadBalancers: [] };
  }

  /** Each member's health mode in the zone (the linter's input beside the steering). */
  healthModes(zoneId: number): Promise<Map<number, string>> {
    return this.repo.healthModes(zoneId);
  }
}
