import type { Kysely } from 'kysely';
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
} from '../../../dns/steering/steering-config.ts';
import { locationByCode } from '../../../geo/geo-data.ts';
import { parseAddress } from '../shared/address-policy.ts';
import type { DnsTables, LoadBalancerRow, MemberRow, PoolRow } from '../dns-tables.ts';

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
 * The load-balancing configuration of one zone (or of every zone when `zoneId` is undefined) as
 * the data plane takes it: zone id → ZoneSteering. Zones without pools or load balancers are absent.
 */
export async function loadSteering(
  db: Kysely<DnsTables>,
  zoneId?: number,
): Promise<Map<number, ZoneSteering>> {
  let poolsQ = db.selectFrom('dns_lb_pools').selectAll().orderBy('id');
  let membersQ = db.selectFrom('dns_lb_members').selectAll().orderBy('pool_id').orderBy('id');
  let lbsQ = db.selectFrom('dns_load_balancers').selectAll().orderBy('id');
  if (zoneId !== undefined) {
    poolsQ = poolsQ.where('zone_id', '=', zoneId);
    membersQ = membersQ.where('zone_id', '=', zoneId);
    lbsQ = lbsQ.where('zone_id', '=', zoneId);
  }
  const [pools, members, lbs] = [await poolsQ.execute(), await membersQ.execute(), await lbsQ.execute()];
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
