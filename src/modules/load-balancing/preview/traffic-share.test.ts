import { describe, expect, it } from 'vitest';
import { resolveClientContext, steer } from '../../../dns/index.ts';
import type { HealthView, SteeringLoadBalancer, SteeringPool } from '../../../dns/index.ts';
import { binomialTolerance } from '../../../testing/binomial-tolerance.ts';
import { createSeededRandom } from '../../../testing/seeded-random.ts';
import { healthOf, loadBalancer, member, pool } from '../../../testing/steering-fixture.ts';
import { exactTrafficShare } from './traffic-share.ts';

const DRAWS = 20_000;
const ctx = resolveClientContext({ strategy: 'pop', pop: 'FRA', clientIp: null, ecs: null, locator: null });

/** Shares seen in DRAWS seeded calls of the real steering function. */
function sampled(lb: SteeringLoadBalancer, pools: SteeringPool[], health: HealthView) {
  const random = createSeededRandom(42).next;
  const byId = new Map(pools.map((p) => [p.id, p]));
  const counts = new Map<string, number>();
  for (let i = 0; i < DRAWS; i++) {
    const d = steer(lb, byId, ctx, 4, health, random);
    const key = d.servfail ? 'servfail' : d.members.length === 0 ? 'nodata' : String(d.members[0]!.id);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Every exact share within the binomial bound of the sampled count (about 5σ: a correct product
 * strays past it less than once in a million draws of DRAWS), and the shares sum to 1.
 */
function agrees(lb: SteeringLoadBalancer, pools: SteeringPool[], health: HealthView = healthOf({})) {
  const exact = exactTrafficShare(lb, pools, ctx, 4, health);
  const total = exact.members.reduce((a, m) => a + m.share, 0) + exact.servfailShare + exact.nodataShare;
  expect(total).toBeCloseTo(1, 12);
  const counts = sampled(lb, pools, health);
  const expected = new Map<string, number>([
    ...exact.members.map((m) => [String(m.memberId), m.share] as [string, number]),
    ['servfail', exact.servfailShare],
    ['nodata', exact.nodataShare],
  ]);
  for (const [key, p] of expected) {
    expect(Math.abs((counts.get(key) ?? 0) - p * DRAWS), `${key}: ${p}`).toBeLessThanOrEqual(
      binomialTolerance(DRAWS, p) + 1e-9,
    );
  }
  for (const key of counts.keys()) expect(expected.has(key), key).toBe(true);
  return exact;
}

describe('exact traffic shares', () => {
  it('weights within a pool: 1:3 → 0.25 / 0.75', () => {
    const pools = [pool(1, [member(10, '203.0.113.1'), member(11, '203.0.113.2', { weight: 3 })])];
    const exact = agrees(loadBalancer({ defaultPools: [1] }), pools);
    expect(exact.members.map((m) => [m.memberId, m.share])).toEqual([
      [11, expect.closeTo(0.75, 12)],
      [10, expect.closeTo(0.25, 12)],
    ]);
  });

  it('random pools × weighted members × health, with an unhealthy member left out', () => {
    const pools = [
      pool(1, [member(10, '203.0.113.1', { weight: 2 }), member(11, '203.0.113.2', { weight: 5 })]),
      pool(2, [member(20, '198.51.100.1'), member(21, '198.51.100.2', { weight: 7 })]),
      pool(3, [member(30, '192.0.2.30')]),
    ];
    const exact = agrees(
      loadBalancer({ policy: 'random', defaultPools: [1, 2, 3] }),
      pools,
      healthOf({ 21: 'unhealthy' }),
    );
    // Three pools alike; in pool 1 2:5; pool 2 is member 20 alone.
    const share = new Map(exact.members.map((m) => [m.memberId, m.share]));
    expect(share.get(10)).toBeCloseTo(2 / 21, 12);
    expect(share.get(11)).toBeCloseTo(5 / 21, 12);
    expect(share.get(20)).toBeCloseTo(1 / 3, 12);
    expect(share.get(30)).toBeCloseTo(1 / 3, 12);
    expect(share.has(21)).toBe(false);
  });

  it('failover by priority, fallback, and SERVFAIL when everything is down', () => {
    const pools = [
      pool(1, [member(10, '203.0.113.1', { priority: 1 }), member(11, '203.0.113.2', { priority: 0 })], {
        algorithm: 'failover',
      }),
      pool(2, [member(20, '198.51.100.1')]),
    ];
    const lb = loadBalancer({ defaultPools: [1], fallbackPoolId: 2, onAllUnhealthy: 'servfail' });
    expect(agrees(lb, pools).members).toEqual([expect.objectContaining({ memberId: 11, share: 1 })]);
    expect(agrees(lb, pools, healthOf({ 10: 'unhealthy', 11: 'unhealthy' })).members).toEqual([
      expect.objectContaining({ memberId: 20, poolId: 2, share: 1 }),
    ]);
    const down = agrees(lb, pools, healthOf({ 10: 'unhealthy', 11: 'unhealthy', 20: 'unhealthy' }));
    expect(down.members).toEqual([]);
    expect(down.servfailShare).toBe(1);
  });
});
