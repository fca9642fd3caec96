/**
 * Applies a preview's `what_if` to the stored configuration, in memory, never saved: the load
 * balancer's fields (checked by the rules and the 200-entry limit of its update route), pools'
 * settings, members' enabled/weight/priority, and forced member or pool health. Ids that are not
 * the zone's answer 422 at their place in `what_if`.
 */
import type { Static } from 'typebox';
import type {
  HealthView,
  LocationStrategy,
  OnAllUnhealthy,
  PoolAlgorithm,
  SessionAffinity,
  SteeringLoadBalancer,
  SteeringPolicy,
  SteeringPool,
} from '../../../dns/index.ts';
import { locationByCode } from '../../../geo/geo-data.ts';
import { invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import { checkSteeringLimit, formatIds, normaliseSteering } from '../load-balancers/steering-input.ts';
import type { WhatIfBody } from './what-if-schemas.ts';
import type { PoolMap } from '../load-balancing-tables.ts';

export type WhatIf = Static<typeof WhatIfBody>;

export interface Situation {
  readonly lb: SteeringLoadBalancer;
  readonly pools: readonly SteeringPool[];
  readonly health: HealthView;
}

const AT = ['body', 'what_if'] as const;

export function applyWhatIf(base: Situation, whatIf: WhatIf): Situation {
  const problems: ValidationProblem[] = [];
  const problem = (loc: (string | number)[], msg: string, input: unknown) =>
    problems.push({ type: 'value_error', loc: [...AT, ...loc], msg, input, ctx: {} });
  const poolIds = new Set(base.pools.map((p) => p.id));
  const memberIds = new Set(base.pools.flatMap((p) => p.members.map((m) => m.id)));
  const known = (
    section: string,
    ids: Set<number>,
    record: Record<string, unknown> | undefined,
    what: string,
  ) => {
    const unknown = Object.keys(record ?? {})
      .map(Number)
      .filter((id) => !ids.has(id));
    if (unknown.length > 0)
      problem([section], `Unknown ${what} ids for this zone: ${formatIds(unknown)}`, unknown);
  };
  known('pools', poolIds, whatIf.pools, 'pool');
  known('members', memberIds, whatIf.members, 'member');
  known('health', poolIds, whatIf.health?.pools, 'pool');
  known('health', memberIds, whatIf.health?.members, 'member');
  for (const [id, patch] of Object.entries(whatIf.pools ?? {})) {
    const code = patch.primary_location_code;
    if (typeof code === 'string' && locationByCode(code) === null) {
      problem(['pools', id, 'primary_location_code'], `Unknown location code: ${code}`, code);
    }
  }
  if (problems.length > 0) throw invalidFields(problems);

  let lb = base.lb;
  const patch = whatIf.load_balancer;
  if (patch !== undefined) {
    const steering = normaliseSteering(patch, poolIds, [...AT, 'load_balancer']);
    const maps = {
      region_pools: steering.region_pools ?? lb.regionPools,
      country_pools: steering.country_pools ?? lb.countryPools,
      location_pools: steering.location_pools ?? lb.locationPools,
    };
    checkSteeringLimit([maps.region_pools, maps.country_pools, maps.location_pools] as PoolMap[]);
    lb = {
      ...lb,
      ttl: patch.ttl ?? lb.ttl,
      enabled: patch.enabled ?? lb.enabled,
      sessionAffinity: (patch.session_affinity as SessionAffinity | undefined) ?? lb.sessionAffinity,
      policy: (patch.steering_policy as SteeringPolicy | undefined) ?? lb.policy,
      locationStrategy: (patch.location_strategy as LocationStrategy | undefined) ?? lb.locationStrategy,
      onAllUnhealthy: (patch.on_all_unhealthy as OnAllUnhealthy | undefined) ?? lb.onAllUnhealthy,
      defaultPools: steering.default_pools ?? lb.defaultPools,
      fallbackPoolId: steering.fallback_pool_id !== undefined ? steering.fallback_pool_id : lb.fallbackPoolId,
      regionPools: maps.region_pools,
      countryPools: maps.country_pools,
      locationPools: maps.location_pools,
    };
  }

  const pools = base.pools.map((p): SteeringPool => {
    const pp = whatIf.pools?.[String(p.id)];
    const location =
      pp?.primary_location_code === undefined
        ? p.primaryLocation
        : pp.primary_location_code === null
          ? null
          : locationByCode(pp.primary_location_code);
    return {
      ...p,
      algorithm: (pp?.algorithm as PoolAlgorithm | undefined) ?? p.algorithm,
      enabled: pp?.enabled ?? p.enabled,
      sessionAffinity: (pp?.session_affinity as SessionAffinity | undefined) ?? p.sessionAffinity,
      primaryLocation:
        location === null
          ? null
          : { code: location.code, latitude: location.latitude, longitude: location.longitude },
      members: p.members.map((m) => {
        const mp = whatIf.members?.[String(m.id)];
        return mp === undefined ? m : { ...m, ...mp };
      }),
    };
  });

  const forcedMembers = new Map<number, 'healthy' | 'unhealthy'>();
  for (const p of base.pools) {
    const forced = whatIf.health?.pools?.[String(p.id)] as 'healthy' | 'unhealthy' | undefined;
    if (forced !== undefined) for (const m of p.members) forcedMembers.set(m.id, forced);
  }
  for (const [id, status] of Object.entries(whatIf.health?.members ?? {})) {
    forcedMembers.set(Number(id), status as 'healthy' | 'unhealthy');
  }
  const health: HealthView =
    forcedMembers.size === 0
      ? base.health
      : { statusOf: (id) => forcedMembers.get(id) ?? base.health.statusOf(id) };
  return { lb, pools, health };
}

/** A reproducible uniform [0, 1) source (mulberry32): the same draws for a what-if and its baseline. */
export function seededUniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
