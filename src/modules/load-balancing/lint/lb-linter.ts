/**
 * The load-balancing configuration linter: mistakes that save fine and answer wrong, found from
 * the same compiled configuration the DNS server steers with (publishing/steering-loader.ts).
 * Pure: the zone's load balancers and pools, each member's health mode, and the PoPs of this
 * deployment in; findings out, each `{severity, code, message, path}` with `path` a dotted path
 * into the object's body (`country_pools.BR`, `members.12.health_mode`).
 */
import type { SteeringLoadBalancer, SteeringPool } from '../../../dns/index.ts';
import { regionOfCountry } from '../../../geo/geo-data.ts';

export type LintSeverity = 'error' | 'warning' | 'info';

export interface LintFinding {
  severity: LintSeverity;
  code: string;
  message: string;
  path: string;
}

export interface LintInput {
  readonly loadBalancers: readonly SteeringLoadBalancer[];
  readonly pools: readonly SteeringPool[];
  /** `none`, `http`, `https`, `tcp` per member id. */
  readonly healthModeOf: (memberId: number) => string;
  /** Location codes of the PoPs this deployment answers from (config POP and DEPLOYMENT_POPS). */
  readonly deploymentPops: ReadonlySet<string>;
}

/**
 * Under this TTL, resolvers come back so often that client_ip affinity buys little (30 is the
 * default TTL).
 */
const AFFINITY_MIN_TTL_S = 30;
const FAMILIES = [4, 6] as const;

/** A pool that is never skipped for `family`: enabled, with an enabled member nobody probes. */
function alwaysUsable(
  pool: SteeringPool | undefined,
  family: 4 | 6,
  modeOf: (id: number) => string,
): boolean {
  return (
    pool !== undefined &&
    pool.enabled &&
    pool.members.some((m) => m.enabled && m.family === family && modeOf(m.id) === 'none')
  );
}

/** Every ordered pool list the cascade walks in order, with its body path. */
function orderedLists(lb: SteeringLoadBalancer): { path: string; ids: readonly number[] }[] {
  const lists: { path: string; ids: readonly number[] }[] = [];
  // With random or proximity steering the default pools are a set to choose from, not an order.
  if (lb.policy === 'off' || lb.policy === 'geo') lists.push({ path: 'default_pools', ids: lb.defaultPools });
  if (lb.policy === 'geo') {
    for (const [key, ids] of Object.entries(lb.locationPools))
      lists.push({ path: `location_pools.${key}`, ids });
    for (const [key, ids] of Object.entries(lb.countryPools))
      lists.push({ path: `country_pools.${key}`, ids });
    for (const [key, ids] of Object.entries(lb.regionPools)) lists.push({ path: `region_pools.${key}`, ids });
  }
  return lists;
}

/** Findings of one load balancer, paths relative to its body. */
export function lintLoadBalancer(lb: SteeringLoadBalancer, input: LintInput): LintFinding[] {
  const out: LintFinding[] = [];
  const poolsById = new Map(input.pools.map((p) => [p.id, p]));
  const add = (severity: LintSeverity, code: string, message: string, path: string) =>
    out.push({ severity, code, message, path });

  // Shadowed pools: listed only where an earlier pool of the list is never skipped.
  const reachable = new Map<number, boolean>();
  const lists = orderedLists(lb);
  for (const { ids } of lists) {
    ids.forEach((id, i) => {
      const earlier = ids.slice(0, i);
      const shadowed = FAMILIES.every((f) =>
        earlier.some((e) => e === id || alwaysUsable(poolsById.get(e), f, input.healthModeOf)),
      );
      reachable.set(id, (reachable.get(id) ?? false) || !shadowed);
    });
  }
  const chooseFrom = lb.policy === 'random' || lb.policy === 'proximity' ? lb.defaultPools : [];
  for (const id of [...chooseFrom, ...(lb.fallbackPoolId !== null ? [lb.fallbackPoolId] : [])])
    reachable.set(id, true);
  for (const [id, ok] of reachable) {
    if (ok) continue;
    const where = lists.find((l) => l.ids.includes(id))!;
    add(
      'warning',
      'pool_unreachable',
      `Pool "${poolsById.get(id)?.name ?? id}" is never answered: wherever it is listed, an earlier pool ` +
        `that is never skipped (enabled members with health_mode none) comes first`,
      `${where.path}.${where.ids.indexOf(id)}`,
    );
  }

  if (lb.policy === 'geo') {
    for (const [country, ids] of Object.entries(lb.countryPools)) {
      const region = regionOfCountry(country);
      const same = region !== null ? lb.regionPools[region] : undefined;
      if (same !== undefined && same.length === ids.length && same.every((id, i) => ids[i] === id)) {
        add(
          'info',
          'country_same_as_region',
          `country_pools.${country} repeats region_pools.${region}: the country entry changes nothing`,
          `country_pools.${country}`,
        );
      }
    }
  }
  for (const key of Object.keys(lb.locationPools)) {
    if (!input.deploymentPops.has(key)) {
      add(
        'warning',
        'unknown_pop',
        `location_pools.${key} names no PoP of this deployment (${[...input.deploymentPops].join(', ')}): it is never used`,
        `location_pools.${key}`,
      );
    }
  }
  if (lb.policy === 'proximity') {
    lb.defaultPools.forEach((id, i) => {
      const pool = poolsById.get(id);
      if (pool !== undefined && pool.primaryLocation === null) {
        add(
          'warning',
          'proximity_pool_without_location',
          `Pool "${pool.name}" has no primary_location_code: proximity steering ranks it last`,
          `default_pools.${i}`,
        );
      }
    });
  }
  if (
    lb.fallbackPoolId !== null &&
    lb.defaultPools.length === 1 &&
    lb.defaultPools[0] === lb.fallbackPoolId
  ) {
    add(
      'info',
      'fallback_is_only_default',
      'The fallback pool is the only default pool: when it fails there is nothing to fall back to',
      'fallback_pool_id',
    );
  }
  const referenced = new Set([
    ...lb.defaultPools,
    ...(lb.fallbackPoolId !== null ? [lb.fallbackPoolId] : []),
    ...Object.values(lb.regionPools).flat(),
    ...Object.values(lb.countryPools).flat(),
    ...Object.values(lb.locationPools).flat(),
  ]);
  const families = FAMILIES.filter((f) =>
    [...referenced].some((id) => poolsById.get(id)?.members.some((m) => m.enabled && m.family === f)),
  );
  if (families.length === 0) {
    add(
      'error',
      'no_enabled_members',
      'No pool of this load balancer has an enabled member: it answers nothing',
      'default_pools',
    );
  } else if (families.length === 1) {
    const missing = families[0] === 4 ? 'IPv6 (AAAA)' : 'IPv4 (A)';
    add(
      'info',
      'no_members_of_family',
      `No enabled ${missing} member in any pool: ${missing} queries get no address`,
      'default_pools',
    );
  }
  if (lb.ttl < AFFINITY_MIN_TTL_S && lb.sessionAffinity === 'client_ip') {
    add(
      'warning',
      'short_ttl_with_affinity',
      `TTL ${lb.ttl} s with session_affinity client_ip: resolvers ask again so often that affinity holds little; use ${AFFINITY_MIN_TTL_S} s or more`,
      'ttl',
    );
  }
  return out;
}

/** Findings of one pool, paths relative to its body. */
export function lintPool(pool: SteeringPool, input: LintInput): LintFinding[] {
  const out: LintFinding[] = [];
  if (pool.algorithm === 'failover') {
    for (const m of pool.members) {
      if (input.healthModeOf(m.id) === 'none') {
        out.push({
          severity: 'warning',
          code: 'failover_member_unmonitored',
          message: `Member ${m.address} has health_mode none in a failover pool: its failure is never seen, so the pool never fails over from it`,
          path: `members.${m.id}.health_mode`,
        });
      }
    }
  }
  const used = input.loadBalancers.some(
    (lb) =>
      lb.defaultPools.includes(pool.id) ||
      lb.fallbackPoolId === pool.id ||
      [lb.regionPools, lb.countryPools, lb.locationPools].some((m) =>
        Object.values(m).some((ids) => ids.includes(pool.id)),
      ),
  );
  if (!used) {
    out.push({
      severity: 'info',
      code: 'pool_unreferenced',
      message: `Pool "${pool.name}" is referenced by no load balancer`,
      path: '',
    });
  }
  return out;
}

/** Every finding of a zone, paths prefixed with the object (`load_balancers.3.ttl`, `pools.7`). */
export function lintZone(input: LintInput): LintFinding[] {
  const prefix = (kind: string, id: number, findings: LintFinding[]) =>
    findings.map((f) => ({ ...f, path: f.path === '' ? `${kind}.${id}` : `${kind}.${id}.${f.path}` }));
  return [
    ...input.loadBalancers.flatMap((lb) => prefix('load_balancers', lb.id, lintLoadBalancer(lb, input))),
    ...input.pools.flatMap((p) => prefix('pools', p.id, lintPool(p, input))),
  ];
}
