import { STEERING_ENTRY_LIMIT, steeringLimitReached } from '../load-balancing-errors.ts';
import { REGION_CODES, locationByCode, regionOfCountry } from '../../../geo/geo-data.ts';
import { invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import type { PoolMap } from '../load-balancing-tables.ts';

/** The pool references of a load balancer, as given (maps keyed as the client wrote them). */
export interface SteeringFields {
  default_pools?: number[] | undefined;
  fallback_pool_id?: number | null | undefined;
  region_pools?: PoolMap | undefined;
  country_pools?: PoolMap | undefined;
  location_pools?: PoolMap | undefined;
}

type MapField = 'region_pools' | 'country_pools' | 'location_pools';

/** A map key → its stored form (upper case), or the 422 message when the code is unknown. */
const KEY_RULES: Record<MapField, (key: string) => { code: string } | { msg: string }> = {
  region_pools: (key) =>
    REGION_CODES.has(key.toUpperCase())
      ? { code: key.toUpperCase() }
      : { msg: `Unknown region code: ${key}` },
  country_pools: (key) =>
    /^[A-Za-z]{2}$/.test(key) && regionOfCountry(key) !== null
      ? { code: key.toUpperCase() }
      : { msg: `Unknown country code: ${key}` },
  location_pools: (key) => {
    const location = locationByCode(key);
    return location !== null ? { code: location.code } : { msg: `Unknown location code: ${key}` };
  },
};

/** `[3, 4]`: the ids sorted, as the 422 `Unknown pool ids for this zone: [...]` shows them. */
export const formatIds = (ids: Iterable<number>): string =>
  `[${[...new Set(ids)].sort((a, b) => a - b).join(', ')}]`;

/**
 * Checks the pool references a create or update gives (422 for unknown codes, repeated ids in a
 * list, or pool ids not in the zone) and answers them normalised: map keys in stored form.
 */
export function normaliseSteering(
  fields: SteeringFields,
  zonePools: ReadonlySet<number>,
  at: readonly (string | number)[] = ['body'],
): SteeringFields {
  const problems: ValidationProblem[] = [];
  const problem = (loc: (string | number)[], msg: string, input: unknown) =>
    problems.push({ type: 'value_error', loc: [...at, ...loc], msg, input, ctx: {} });
  const checkList = (loc: (string | number)[], ids: number[]) => {
    if (new Set(ids).size !== ids.length) problem(loc, 'Pool ids must not repeat within a list', ids);
    const unknown = ids.filter((id) => !zonePools.has(id));
    if (unknown.length > 0) problem(loc, `Unknown pool ids for this zone: ${formatIds(unknown)}`, ids);
  };

  const out: SteeringFields = {};
  if (fields.default_pools !== undefined) {
    checkList(['default_pools'], fields.default_pools);
    out.default_pools = fields.default_pools;
  }
  if (fields.fallback_pool_id !== undefined) {
    const id = fields.fallback_pool_id;
    if (id !== null && !zonePools.has(id)) {
      problem(['fallback_pool_id'], `Unknown pool ids for this zone: ${formatIds([id])}`, id);
    }
    out.fallback_pool_id = id;
  }
  for (const field of ['region_pools', 'country_pools', 'location_pools'] as const) {
    const map = fields[field];
    if (map === undefined) continue;
    const normalised: PoolMap = {};
    for (const [key, ids] of Object.entries(map)) {
      const rule = KEY_RULES[field](key);
      if ('msg' in rule) {
        problem([field, key], rule.msg, key);
        continue;
      }
      if (normalised[rule.code] !== undefined) {
        problem([field, key], `Code ${rule.code} is given more than once`, key);
        continue;
      }
      checkList([field, key], ids);
      normalised[rule.code] = ids;
    }
    out[field] = normalised;
  }
  if (problems.length > 0) throw invalidFields(problems);
  return out;
}

/** One entry = one pool id in one list of the region, country or PoP maps; 403 past the limit. */
export function checkSteeringLimit(maps: readonly PoolMap[]): void {
  const entries = maps.reduce((n, map) => n + Object.values(map).reduce((m, ids) => m + ids.length, 0), 0);
  if (entries > STEERING_ENTRY_LIMIT) throw steeringLimitReached();
}

/** Every pool id a load balancer refers to. */
export function referencedPools(lb: {
  default_pools: readonly number[];
  fallback_pool_id: number | null;
  region_pools: PoolMap;
  country_pools: PoolMap;
  location_pools: PoolMap;
}): Set<number> {
  const ids = new Set<number>(lb.default_pools);
  if (lb.fallback_pool_id !== null) ids.add(lb.fallback_pool_id);
  for (const map of [lb.region_pools, lb.country_pools, lb.location_pools]) {
    for (const list of Object.values(map)) for (const id of list) ids.add(id);
  }
  return ids;
}
