import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { healthOf, loadBalancer, member, pool, poolMap } from '../../testing/steering-fixture.ts';
import type { ClientContext } from './client-location.ts';
import type { MemberHealth, SteeringLoadBalancer } from './steering-config.ts';
import type { CascadeHit, SteeringReason } from './steering-decision.ts';
import { steer } from './steering-engine.ts';

const POOLS = [
  pool(1, [member(101, '10.0.1.1')], { name: 'fra' }),
  pool(2, [member(201, '10.0.2.1')], { name: 'de' }),
  pool(3, [member(301, '10.0.3.1')], { name: 'weu' }),
  pool(4, [member(401, '10.0.4.1'), member(402, '2001:db8::4')], { name: 'default-a' }),
  pool(5, [member(501, '10.0.5.1')], { name: 'default-b' }),
  pool(6, [member(601, '10.0.6.1'), member(602, '10.0.6.2'), member(603, '10.0.6.3', { enabled: false })], {
    name: 'fallback',
  }),
  pool(7, [member(701, '2001:db8::7')], { name: 'v6-only' }),
  pool(8, [member(801, '10.0.8.1')], { name: 'off', enabled: false }),
  // Proximity pools: Frankfurt, Ashburn, Tokyo.
  pool(11, [member(1101, '10.1.1.1')], {
    primaryLocation: { code: 'FRA', latitude: 50.11, longitude: 8.68 },
  }),
  pool(12, [member(1201, '10.1.2.1')], {
    primaryLocation: { code: 'IAD', latitude: 39.04, longitude: -77.49 },
  }),
  pool(13, [member(1301, '10.1.3.1')], {
    primaryLocation: { code: 'NRT', latitude: 35.68, longitude: 139.69 },
  }),
  pool(14, [member(1401, '10.1.4.1')], { primaryLocation: null }),
];
const BY_ID = poolMap(POOLS);

const GEO: Partial<SteeringLoadBalancer> = {
  policy: 'geo',
  locationPools: { FRA: [1] },
  countryPools: { DE: [2] },
  regionPools: { WEU: [3] },
  defaultPools: [4, 5],
  fallbackPoolId: 6,
};
const PROXIMITY: Partial<SteeringLoadBalancer> = { policy: 'proximity', defaultPools: [14, 13, 12, 11] };

function ctx(over: Partial<ClientContext> = {}): ClientContext {
  return {
    source: 'resolver_ip',
    pop: 'AMS',
    country: null,
    region: null,
    latitude: null,
    longitude: null,
    clientIp: '192.0.2.1',
    affinityKey: 12345,
    subnetPrefix: 24,
    fromEcs: false,
    ...over,
  };
}

const DE = { country: 'DE', region: 'WEU', latitude: 51.11, longitude: 10.39 };
const FR = { country: 'FR', region: 'WEU', latitude: 46.63, longitude: 2.45 };
const JP = { country: 'JP', region: 'NEAS', latitude: 36.2, longitude: 138.25 };
const US = { country: 'US', region: 'ENAM', latitude: 39.83, longitude: -98.58 };

const down = (...ids: number[]): Record<number, MemberHealth> =>
  Object.fromEntries(ids.map((id) => [id, 'unhealthy' as const]));
const ALL_A_DOWN = down(101, 201, 301, 401, 501, 601, 602, 801);

interface Case {
  name: string;
  lb: Partial<SteeringLoadBalancer>;
  ctx?: Partial<ClientContext>;
  family?: 4 | 6;
  health?: Record<number, MemberHealth>;
  hit: CascadeHit;
  reason: SteeringReason;
  pool: number | null;
  members: number[];
}

const CASES: Case[] = [
  {
    name: 'geo: location pool of the answering PoP',
    lb: GEO,
    ctx: { pop: 'FRA', ...US },
    hit: 'location',
    reason: 'ok',
    pool: 1,
    members: [101],
  },
  { name: 'geo: country pool', lb: GEO, ctx: DE, hit: 'country', reason: 'ok', pool: 2, members: [201] },
  { name: 'geo: region pool', lb: GEO, ctx: FR, hit: 'region', reason: 'ok', pool: 3, members: [301] },
  { name: 'geo: default pool', lb: GEO, ctx: JP, hit: 'default', reason: 'ok', pool: 4, members: [401] },
  {
    name: 'geo: unknown client location goes to default',
    lb: GEO,
    hit: 'default',
    reason: 'ok',
    pool: 4,
    members: [401],
  },
  {
    name: 'geo: unhealthy location pool falls to country',
    lb: GEO,
    ctx: { pop: 'FRA', ...DE },
    health: down(101),
    hit: 'country',
    reason: 'ok',
    pool: 2,
    members: [201],
  },
  {
    name: 'geo: disabled pool is skipped',
    lb: { ...GEO, countryPools: { DE: [8, 2] } },
    ctx: DE,
    hit: 'country',
    reason: 'ok',
    pool: 2,
    members: [201],
  },
  {
    name: 'geo: unknown pool id is skipped',
    lb: { ...GEO, countryPools: { DE: [999, 2] } },
    ctx: DE,
    hit: 'country',
    reason: 'ok',
    pool: 2,
    members: [201],
  },
  {
    name: 'geo: second default pool when the first is down',
    lb: GEO,
    ctx: JP,
    health: down(401),
    hit: 'default',
    reason: 'ok',
    pool: 5,
    members: [501],
  },
  {
    name: 'fallback when every cascade pool is down',
    lb: GEO,
    ctx: DE,
    health: down(101, 201, 301, 401, 501, 602),
    hit: 'fallback',
    reason: 'ok',
    pool: 6,
    members: [601],
  },
  {
    name: 'serve_last: the fallback pool, all enabled members',
    lb: GEO,
    ctx: DE,
    health: ALL_A_DOWN,
    hit: 'serve_last',
    reason: 'all_unhealthy_serve_last',
    pool: 6,
    members: [601, 602],
  },
  {
    name: 'serve_last: first default pool without a fallback',
    lb: { ...GEO, fallbackPoolId: null },
    ctx: DE,
    health: ALL_A_DOWN,
    hit: 'serve_last',
    reason: 'all_unhealthy_serve_last',
    pool: 4,
    members: [401],
  },
  {
    name: 'servfail when all unhealthy',
    lb: { ...GEO, onAllUnhealthy: 'servfail' },
    ctx: DE,
    health: ALL_A_DOWN,
    hit: null,
    reason: 'all_unhealthy',
    pool: null,
    members: [],
  },
  {
    name: 'no_members: AAAA with only IPv4 members reachable',
    lb: { policy: 'off', defaultPools: [5], fallbackPoolId: 6 },
    family: 6,
    hit: null,
    reason: 'no_members',
    pool: null,
    members: [],
  },
  {
    name: 'no_members: only disabled pools',
    lb: { policy: 'off', defaultPools: [8] },
    hit: null,
    reason: 'no_members',
    pool: null,
    members: [],
  },
  {
    name: 'family: AAAA picks the IPv6 member',
    lb: GEO,
    ctx: JP,
    family: 6,
    hit: 'default',
    reason: 'ok',
    pool: 4,
    members: [402],
  },
  {
    name: 'family: AAAA skips an IPv4-only pool',
    lb: { policy: 'off', defaultPools: [5, 7] },
    family: 6,
    hit: 'default',
    reason: 'ok',
    pool: 7,
    members: [701],
  },
  {
    name: 'family: A skips an IPv6-only pool',
    lb: { policy: 'off', defaultPools: [7, 5] },
    family: 4,
    hit: 'default',
    reason: 'ok',
    pool: 5,
    members: [501],
  },
  {
    name: 'family: unhealthy IPv6 member does not block IPv4',
    lb: { policy: 'off', defaultPools: [4] },
    health: down(402),
    hit: 'default',
    reason: 'ok',
    pool: 4,
    members: [401],
  },
  {
    name: 'off: first default pool',
    lb: { policy: 'off', defaultPools: [5, 4] },
    ctx: DE,
    hit: 'default',
    reason: 'ok',
    pool: 5,
    members: [501],
  },
  {
    name: 'off: failover to the next default pool',
    lb: { policy: 'off', defaultPools: [5, 4] },
    health: down(501),
    hit: 'default',
    reason: 'ok',
    pool: 4,
    members: [401],
  },
  {
    name: 'off: unknown health counts as healthy',
    lb: { policy: 'off', defaultPools: [5] },
    health: { 501: 'unknown' },
    hit: 'default',
    reason: 'ok',
    pool: 5,
    members: [501],
  },
  {
    name: 'proximity: Germany → Frankfurt',
    lb: PROXIMITY,
    ctx: DE,
    hit: 'proximity',
    reason: 'ok',
    pool: 11,
    members: [1101],
  },
  {
    name: 'proximity: United States → Ashburn',
    lb: PROXIMITY,
    ctx: US,
    hit: 'proximity',
    reason: 'ok',
    pool: 12,
    members: [1201],
  },
  {
    name: 'proximity: Japan → Tokyo',
    lb: PROXIMITY,
    ctx: JP,
    hit: 'proximity',
    reason: 'ok',
    pool: 13,
    members: [1301],
  },
  {
    name: 'proximity: nearest down → next nearest',
    lb: PROXIMITY,
    ctx: DE,
    health: down(1101),
    hit: 'proximity',
    reason: 'ok',
    pool: 12,
    members: [1201],
  },
  {
    name: 'proximity: located pools down → pool without location',
    lb: PROXIMITY,
    ctx: DE,
    health: down(1101, 1201, 1301),
    hit: 'proximity',
    reason: 'ok',
    pool: 14,
    members: [1401],
  },
  {
    name: 'proximity: unknown client location → default order',
    lb: PROXIMITY,
    hit: 'default',
    reason: 'ok',
    pool: 14,
    members: [1401],
  },
  {
    name: 'proximity: fallback',
    lb: { ...PROXIMITY, fallbackPoolId: 6 },
    ctx: DE,
    health: down(1101, 1201, 1301, 1401, 602),
    hit: 'fallback',
    reason: 'ok',
    pool: 6,
    members: [601],
  },
  {
    name: 'random: the only healthy default pool',
    lb: { policy: 'random', defaultPools: [4, 5, 8] },
    health: down(401),
    hit: 'default',
    reason: 'ok',
    pool: 5,
    members: [501],
  },
  {
    name: 'disabled load balancer',
    lb: { ...GEO, enabled: false },
    ctx: DE,
    hit: null,
    reason: 'load_balancer_disabled',
    pool: null,
    members: [],
  },
];

describe('steer: cascade and reasons', () => {
  it.each(CASES)('$name', (c) => {
    const d = steer(
      loadBalancer(c.lb),
      BY_ID,
      ctx(c.ctx),
      c.family ?? 4,
      healthOf(c.health),
      createSeededRandom(1).next,
    );
    expect({
      hit: d.cascadeHit,
      reason: d.reason,
      pool: d.pool?.id ?? null,
      members: d.members.map((m) => m.id),
    }).toEqual({ hit: c.hit, reason: c.reason, pool: c.pool, members: c.members });
    expect(d.servfail).toBe(c.reason === 'all_unhealthy');
    expect(d.ttl).toBe(30);
    expect(d.trace).toEqual([]);
  });

  it('covers every cascade hit and every reason', () => {
    expect(new Set(CASES.map((c) => c.hit))).toEqual(
      new Set(['location', 'country', 'region', 'default', 'fallback', 'proximity', 'serve_last', null]),
    );
    expect(new Set(CASES.map((c) => c.reason))).toEqual(
      new Set(['ok', 'all_unhealthy_serve_last', 'all_unhealthy', 'no_members', 'load_balancer_disabled']),
    );
  });
});

describe('steer: trace', () => {
  it('records every stage visited with skip reasons, only when asked', () => {
    const lb = loadBalancer({ ...GEO, countryPools: { DE: [8, 999] }, regionPools: { WEU: [2] } });
    const d = steer(lb, BY_ID, ctx({ pop: 'FRA', ...DE }), 4, healthOf(down(101)), Math.random, true);
    expect(d.trace).toEqual([
      { stage: 'location', key: 'FRA', pools: [{ id: 1, name: 'fra', skipped: 'no_healthy_members' }] },
      {
        stage: 'country',
        key: 'DE',
        pools: [
          { id: 8, name: 'off', skipped: 'disabled' },
          { id: 999, name: '', skipped: 'unknown_pool' },
        ],
      },
      { stage: 'region', key: 'WEU', pools: [{ id: 2, name: 'de', skipped: null }] },
    ]);
    expect(d.cascadeHit).toBe('region');
  });

  it('reports proximity distances and the pools not chosen', () => {
    const d = steer(loadBalancer(PROXIMITY), BY_ID, ctx(DE), 6, healthOf(), Math.random, true);
    expect(d.reason).toBe('no_members');
    const d4 = steer(loadBalancer(PROXIMITY), BY_ID, ctx(DE), 4, healthOf(down(1301)), Math.random, true);
    const stage = d4.trace[0]!;
    expect(stage.stage).toBe('proximity');
    expect(stage.pools.map((p) => [p.id, p.skipped])).toEqual([
      [14, 'not_chosen'],
      [13, 'no_healthy_members'],
      [12, 'not_chosen'],
      [11, null],
    ]);
    expect(stage.pools[0]!.distanceKm).toBeNull();
    expect(stage.pools[3]!.distanceKm).toBeGreaterThan(100);
    expect(stage.pools[3]!.distanceKm).toBeLessThan(200);
  });

  it('names the family problem and the fallback stage', () => {
    const lb = loadBalancer({ policy: 'off', defaultPools: [5], fallbackPoolId: 7 });
    const d = steer(lb, BY_ID, ctx(), 6, healthOf(), Math.random, true);
    expect(d.trace).toEqual([
      { stage: 'default', key: null, pools: [{ id: 5, name: 'default-b', skipped: 'no_members_of_family' }] },
      { stage: 'fallback', key: null, pools: [{ id: 7, name: 'v6-only', skipped: null }] },
    ]);
  });
});

describe('steer: ECS scope', () => {
  const ecs = { fromEcs: true, subnetPrefix: 24 } as const;
  const cases: {
    name: string;
    lb: Partial<SteeringLoadBalancer>;
    ctx: Partial<ClientContext>;
    scope: number;
  }[] = [
    { name: 'resolver_ip geo answer from the country stage', lb: GEO, ctx: { ...ecs, ...DE }, scope: 24 },
    { name: 'resolver_ip geo answer from the default stage', lb: GEO, ctx: { ...ecs, ...JP }, scope: 24 },
    { name: 'location stage depends on the PoP only', lb: GEO, ctx: { ...ecs, ...DE, pop: 'FRA' }, scope: 0 },
    {
      name: 'pop strategy: nothing depends on the client',
      lb: GEO,
      ctx: { ...ecs, ...DE, source: 'pop' },
      scope: 0,
    },
    { name: 'steering off without affinity', lb: { policy: 'off', defaultPools: [4] }, ctx: ecs, scope: 0 },
    { name: 'proximity with a located client', lb: PROXIMITY, ctx: { ...ecs, ...DE }, scope: 24 },
    {
      name: 'LB affinity for random pool choice',
      lb: { policy: 'random', defaultPools: [4, 5], sessionAffinity: 'client_ip' },
      ctx: ecs,
      scope: 24,
    },
    { name: 'no ECS in the query', lb: GEO, ctx: { ...DE }, scope: 0 },
  ];
  it.each(cases)('$name → $scope', (c) => {
    expect(steer(loadBalancer(c.lb), BY_ID, ctx(c.ctx), 4, healthOf(), Math.random).ecsScope).toBe(c.scope);
  });

  it('pool affinity makes the answer client-dependent', () => {
    const pools = poolMap([
      pool(1, [member(1, '10.0.0.1'), member(2, '10.0.0.2')], { sessionAffinity: 'client_ip' }),
    ]);
    const lb = loadBalancer({ defaultPools: [1] });
    expect(
      steer(lb, pools, ctx({ fromEcs: true, subnetPrefix: 20 }), 4, healthOf(), Math.random).ecsScope,
    ).toBe(20);
  });
});

describe('steer: random pool choice', () => {
  const lb = loadBalancer({ policy: 'random', defaultPools: [4, 5] });

  it('spreads over the healthy default pools', () => {
    const random = createSeededRandom(7).next;
    const counts = new Map<number, number>();
    for (let i = 0; i < 20_000; i++) {
      const id = steer(lb, BY_ID, ctx(), 4, healthOf(), random).pool!.id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    // Binomial(20000, 0.5): sd ≈ 71; 5 sd ≈ 355.
    expect(Math.abs(counts.get(4)! - 10_000)).toBeLessThan(355);
  });

  it('is stable per client subnet with LB session affinity', () => {
    const sticky = loadBalancer({ policy: 'random', defaultPools: [4, 5], sessionAffinity: 'client_ip' });
    const random = createSeededRandom(3).next;
    let pool4 = 0;
    for (let key = 0; key < 2000; key++) {
      const first = steer(sticky, BY_ID, ctx({ affinityKey: key }), 4, healthOf(), random).pool!.id;
      for (let j = 0; j < 3; j++) {
        expect(steer(sticky, BY_ID, ctx({ affinityKey: key }), 4, healthOf(), random).pool!.id).toBe(first);
      }
      if (first === 4) pool4++;
    }
    expect(Math.abs(pool4 - 1000)).toBeLessThan(5 * Math.sqrt(500));
  });
});
