import { greatCircleKm } from '../../geo/great-circle.ts';
import type { ClientContext } from './client-location.ts';
import { pickMember, poolHasMembersOf, poolSkipReason, rendezvousScore } from './member-picker.ts';
import type { HealthView, SteeringLoadBalancer, SteeringMember, SteeringPool } from './steering-config.ts';
import type {
  CascadeHit,
  PoolSkipReason,
  SteeringDecision,
  SteeringReason,
  TracePool,
  TraceStage,
  TraceStageName,
} from './steering-decision.ts';

export type { ClientContext, ClientContextInput, LocationOverrides } from './client-location.ts';
export { resolveClientContext } from './client-location.ts';
export type * from './steering-decision.ts';

/**
 * The steering function: (load balancer, pools, client context, family, health, random source)
 * → decision. Pure: everything it reads is passed in, randomness included, so the DNS server and
 * the preview API get the same answer from the same inputs. Per-query cost is loops over the
 * configured lists; the trace is only built when `withTrace` is set.
 */

const NO_MEMBERS: readonly SteeringMember[] = Object.freeze([]);
const NO_TRACE: readonly TraceStage[] = Object.freeze([]);
const NO_HEALTH: HealthView = { statusOf: () => 'unknown' };

/**
 * Mutable per-call state. One module-level object reused by every call: steer() is synchronous and
 * never re-entered, and nothing keeps a reference to it past the call.
 */
interface Walk {
  poolsById: ReadonlyMap<number, SteeringPool>;
  family: 4 | 6;
  health: HealthView;
  trace: TraceStage[] | null;
  /** Some visited pool holds an enabled member of the family (healthy or not). */
  sawMembers: boolean;
  /** First visited pool holding enabled members of the family: serve_last's last resort. */
  firstWithMembers: SteeringPool | null;
}

const EMPTY_POOLS: ReadonlyMap<number, SteeringPool> = new Map();
const WALK: Walk = {
  poolsById: EMPTY_POOLS,
  family: 4,
  health: NO_HEALTH,
  trace: null,
  sawMembers: false,
  firstWithMembers: null,
};

function openStage(w: Walk, stage: TraceStageName, key: string | null): TracePool[] | null {
  if (w.trace === null) return null;
  const pools: TracePool[] = [];
  w.trace.push({ stage, key, pools });
  return pools;
}

/** Skip reason of pool `id` (null = usable), noting whether it has members of the family at all. */
function visit(w: Walk, id: number): PoolSkipReason | null {
  const pool = w.poolsById.get(id);
  if (pool === undefined) return 'unknown_pool';
  const reason = poolSkipReason(pool, w.family, w.health);
  if (reason === null || reason === 'no_healthy_members') {
    w.sawMembers = true;
    if (w.firstWithMembers === null) w.firstWithMembers = pool;
  }
  return reason;
}

function record(
  tp: TracePool[] | null,
  w: Walk,
  id: number,
  skipped: PoolSkipReason | null,
  km?: number | null,
): void {
  if (tp === null) return;
  const name = w.poolsById.get(id)?.name ?? '';
  tp.push(km === undefined ? { id, name, skipped } : { id, name, skipped, distanceKm: km });
}

/** First usable pool of an ordered list (failover order), or null. */
function firstUsable(
  w: Walk,
  ids: readonly number[] | undefined,
  stage: TraceStageName,
  key: string | null,
): SteeringPool | null {
  const tp = openStage(w, stage, key);
  if (ids === undefined) return null;
  for (let i = 0; i < ids.length; i++) {
    const reason = visit(w, ids[i]!);
    record(tp, w, ids[i]!, reason);
    if (reason === null) return w.poolsById.get(ids[i]!)!;
  }
  return null;
}

function lookup(
  map: Readonly<Record<string, readonly number[]>>,
  key: string | null,
): readonly number[] | undefined {
  return key !== null && Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Nearest usable default pool by great-circle distance; pools without a location rank last. */
function nearest(
  w: Walk,
  ids: readonly number[],
  client: { readonly latitude: number; readonly longitude: number },
): SteeringPool | null {
  const tp = openStage(w, 'proximity', null);
  let best: SteeringPool | null = null;
  let bestKm = Infinity;
  for (let i = 0; i < ids.length; i++) {
    const reason = visit(w, ids[i]!);
    const pool = w.poolsById.get(ids[i]!);
    const loc = pool?.primaryLocation ?? null;
    const km = loc === null ? null : greatCircleKm(client, loc);
    if (reason === null && (best === null || (km ?? Infinity) < bestKm)) {
      best = pool!;
      bestKm = km ?? Infinity;
    }
    record(tp, w, ids[i]!, reason, km);
  }
  if (tp !== null) markChosen(tp, best);
  return best;
}

/** A usable default pool chosen uniformly, or by rendezvous on the client subnet when keyed. */
function randomPool(
  w: Walk,
  ids: readonly number[],
  random: () => number,
  key: number | null,
): SteeringPool | null {
  const tp = openStage(w, 'random', null);
  let count = 0;
  let best: SteeringPool | null = null;
  let bestScore = Infinity;
  for (let i = 0; i < ids.length; i++) {
    const reason = visit(w, ids[i]!);
    record(tp, w, ids[i]!, reason);
    if (reason !== null) continue;
    count++;
    if (key !== null) {
      const s = rendezvousScore(key, ids[i]!, 1);
      if (s < bestScore) {
        bestScore = s;
        best = w.poolsById.get(ids[i]!)!;
      }
    }
  }
  if (key === null && count > 0) {
    // One usable pool: no draw (a decision without chance may be kept by an answer cache).
    let n = count === 1 ? 0 : Math.min(count - 1, Math.floor(random() * count));
    for (let i = 0; i < ids.length; i++) {
      const pool = w.poolsById.get(ids[i]!);
      if (pool === undefined || poolSkipReason(pool, w.family, w.health) !== null) continue;
      if (n-- === 0) {
        best = pool;
        break;
      }
    }
  }
  if (tp !== null) markChosen(tp, best);
  return best;
}

/** In a choose-one stage, every usable pool but the chosen one is reported as not_chosen. */
function markChosen(tp: TracePool[], chosen: SteeringPool | null): void {
  let chosenSeen = false;
  for (let i = 0; i < tp.length; i++) {
    const p = tp[i]!;
    if (p.skipped !== null) continue;
    if (chosen !== null && p.id === chosen.id && !chosenSeen) chosenSeen = true;
    else tp[i] = { ...p, skipped: 'not_chosen' };
  }
}

function enabledMembersOf(pool: SteeringPool, family: 4 | 6): SteeringMember[] {
  return pool.members.filter((m) => m.enabled && m.family === family);
}

/** A SteeringDecision whose fields can be rewritten: the DNS path reuses one per query. */
export type ReusableDecision = {
  -readonly [K in keyof SteeringDecision]: SteeringDecision[K];
};

/** A decision object for steer()'s `into`: one per caller, read before the next call. */
export function createReusableDecision(): ReusableDecision {
  return {
    cascadeHit: null,
    reason: 'no_members',
    servfail: false,
    pool: null,
    members: NO_MEMBERS,
    ttl: 0,
    ecsScope: 0,
    trace: NO_TRACE,
  };
}

/** Whether the last steer() call's decision depended on the client's address (see clientDependent). */
let CLIENT_DEPENDENT = false;

/**
 * Whether the last steer() decision depended on the client: its country, region or coordinates
 * came from its address (not the PoP), or a session affinity hashed its subnet. With an ECS
 * context that is the ECS subnet (ecsScope > 0); without one, the resolver's address.
 */
export function lastSteerDependedOnClient(): boolean {
  return CLIENT_DEPENDENT;
}

/** Per-call output target: a fresh object unless the caller passed one to reuse. */
let INTO: ReusableDecision | null = null;
// One-member answers of the reused decision share one array (rewritten per call).
const ONE_MEMBER: SteeringMember[] = [];

function oneMember(member: SteeringMember): readonly SteeringMember[] {
  if (INTO === null) return [member];
  ONE_MEMBER[0] = member;
  return ONE_MEMBER;
}

function decision(
  cascadeHit: CascadeHit,
  reason: SteeringReason,
  pool: SteeringPool | null,
  members: readonly SteeringMember[],
  ttl: number,
  ecsScope: number,
  trace: TraceStage[] | null,
): SteeringDecision {
  const d = INTO;
  if (d === null) {
    return {
      cascadeHit,
      reason,
      servfail: reason === 'all_unhealthy',
      pool,
      members,
      ttl,
      ecsScope,
      trace: trace ?? NO_TRACE,
    };
  }
  d.cascadeHit = cascadeHit;
  d.reason = reason;
  d.servfail = reason === 'all_unhealthy';
  d.pool = pool;
  d.members = members;
  d.ttl = ttl;
  d.ecsScope = ecsScope;
  d.trace = trace ?? NO_TRACE;
  return d;
}

/**
 * Steers one A (family 4) or AAAA (family 6) query for `lb`. `random` returns [0, 1); it is only
 * called where the rules ask for chance (random pool, weighted member without affinity).
 * With `into`, the decision is written there (and its one-member `members` array is shared between
 * calls) instead of allocated: for callers that read it before steering again (the DNS path).
 */
export function steer(
  lb: SteeringLoadBalancer,
  poolsById: ReadonlyMap<number, SteeringPool>,
  ctx: ClientContext,
  family: 4 | 6,
  health: HealthView,
  random: () => number,
  withTrace = false,
  into: ReusableDecision | null = null,
): SteeringDecision {
  const trace: TraceStage[] | null = withTrace ? [] : null;
  INTO = into;
  CLIENT_DEPENDENT = false;
  try {
    if (!lb.enabled) return decision(null, 'load_balancer_disabled', null, NO_MEMBERS, lb.ttl, 0, trace);
    return steerEnabled(lb, poolsById, ctx, family, health, random, trace);
  } finally {
    INTO = null;
  }
}

function steerEnabled(
  lb: SteeringLoadBalancer,
  poolsById: ReadonlyMap<number, SteeringPool>,
  ctx: ClientContext,
  family: 4 | 6,
  health: HealthView,
  random: () => number,
  trace: TraceStage[] | null,
): SteeringDecision {
  const w = WALK;
  w.poolsById = poolsById;
  w.family = family;
  w.health = health;
  w.trace = trace;
  w.sawMembers = false;
  w.firstWithMembers = null;
  try {
    return walk(w, lb, ctx, random);
  } finally {
    // Drop references to the caller's objects.
    w.poolsById = EMPTY_POOLS;
    w.health = NO_HEALTH;
    w.trace = null;
    w.firstWithMembers = null;
  }
}

function walk(w: Walk, lb: SteeringLoadBalancer, ctx: ClientContext, random: () => number): SteeringDecision {
  const { poolsById, family, health, trace } = w;
  // Country, region and coordinates only vary with the client when they came from its address.
  const located = ctx.source !== 'pop';
  let dependsOnClient = false;
  let hit: CascadeHit = null;
  let pool: SteeringPool | null = null;

  switch (lb.policy) {
    case 'geo':
      pool = firstUsable(w, lookup(lb.locationPools, ctx.pop), 'location', ctx.pop);
      if (pool !== null) {
        hit = 'location';
        break;
      }
      dependsOnClient = located;
      pool = firstUsable(w, lookup(lb.countryPools, ctx.country), 'country', ctx.country);
      if (pool !== null) {
        hit = 'country';
        break;
      }
      pool = firstUsable(w, lookup(lb.regionPools, ctx.region), 'region', ctx.region);
      if (pool !== null) {
        hit = 'region';
        break;
      }
      pool = firstUsable(w, lb.defaultPools, 'default', null);
      if (pool !== null) hit = 'default';
      break;
    case 'proximity':
      if (ctx.latitude !== null && ctx.longitude !== null) {
        dependsOnClient = located;
        // Both coordinates checked non-null just above: no per-query coordinates object.
        pool = nearest(w, lb.defaultPools, ctx as { readonly latitude: number; readonly longitude: number });
        if (pool !== null) hit = 'proximity';
      } else {
        // Client location unknown: the default pools in order, as with steering off.
        pool = firstUsable(w, lb.defaultPools, 'default', null);
        if (pool !== null) hit = 'default';
      }
      break;
    case 'random': {
      const affinity = lb.sessionAffinity === 'client_ip';
      if (affinity) dependsOnClient = true;
      pool = randomPool(w, lb.defaultPools, random, affinity ? ctx.affinityKey : null);
      if (pool !== null) hit = 'default';
      break;
    }
    case 'off':
      pool = firstUsable(w, lb.defaultPools, 'default', null);
      if (pool !== null) hit = 'default';
      break;
  }

  if (pool === null && lb.fallbackPoolId !== null) {
    pool = firstUsable(w, [lb.fallbackPoolId], 'fallback', null);
    if (pool !== null) hit = 'fallback';
  }

  if (pool !== null) {
    const affinity = pool.sessionAffinity === 'client_ip';
    if (affinity) dependsOnClient = true;
    CLIENT_DEPENDENT = dependsOnClient;
    const member = pickMember(pool, family, health, random, affinity ? ctx.affinityKey : null);
    const scope = ctx.fromEcs && dependsOnClient ? ctx.subnetPrefix : 0;
    return decision(hit, 'ok', pool, member === null ? NO_MEMBERS : oneMember(member), lb.ttl, scope, trace);
  }

  CLIENT_DEPENDENT = dependsOnClient;
  const scope = ctx.fromEcs && dependsOnClient ? ctx.subnetPrefix : 0;
  if (!w.sawMembers) return decision(null, 'no_members', null, NO_MEMBERS, lb.ttl, scope, trace);
  if (lb.onAllUnhealthy === 'servfail')
    return decision(null, 'all_unhealthy', null, NO_MEMBERS, lb.ttl, scope, trace);

  // serve_last: the fallback pool, else the first default pool, else the first pool seen with members.
  let last: SteeringPool | null = null;
  const fb = lb.fallbackPoolId === null ? undefined : poolsById.get(lb.fallbackPoolId);
  if (fb !== undefined && poolHasMembersOf(fb, family)) last = fb;
  for (let i = 0; last === null && i < lb.defaultPools.length; i++) {
    const p = poolsById.get(lb.defaultPools[i]!);
    if (p !== undefined && poolHasMembersOf(p, family)) last = p;
  }
  last ??= w.firstWithMembers!;
  const tp = openStage(w, 'serve_last', null);
  record(tp, w, last.id, null);
  return decision(
    'serve_last',
    'all_unhealthy_serve_last',
    last,
    enabledMembersOf(last, family),
    lb.ttl,
    scope,
    trace,
  );
}
