import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { healthOf, member, pool } from '../../testing/steering-fixture.ts';
import type { MemberHealth, SteeringPool } from './steering-config.ts';
import { pickMember, poolSkipReason } from './member-picker.ts';
import { subnetKeyOfText } from './subnet-key.ts';

function draw(
  p: SteeringPool,
  n: number,
  seed: number,
  statuses: Record<number, MemberHealth> = {},
): Map<number, number> {
  const random = createSeededRandom(seed).next;
  const health = healthOf(statuses);
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const id = pickMember(p, 4, health, random, null)!.id;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** |observed - expected| below 5 binomial standard deviations. */
function expectShare(count: number | undefined, n: number, p: number): void {
  const sd = Math.sqrt(n * p * (1 - p));
  expect(Math.abs((count ?? 0) - n * p)).toBeLessThan(5 * sd + 1);
}

const WEIGHTED = pool(1, [
  member(1, '10.0.0.1', { weight: 10 }),
  member(2, '10.0.0.2', { weight: 30 }),
  member(3, '10.0.0.3', { weight: 60 }),
  member(4, '10.0.0.4', { weight: 50, enabled: false }),
  member(5, '2001:db8::5', { weight: 50 }),
]);

describe('pickMember: weighted_rr', () => {
  it('picks in proportion to weight (enabled members of the family only)', () => {
    const n = 100_000;
    const counts = draw(WEIGHTED, n, 42);
    expectShare(counts.get(1), n, 0.1);
    expectShare(counts.get(2), n, 0.3);
    expectShare(counts.get(3), n, 0.6);
    expect(counts.has(4)).toBe(false);
    expect(counts.has(5)).toBe(false);
  });

  it('renormalises over the healthy members', () => {
    const n = 50_000;
    const counts = draw(WEIGHTED, n, 9, { 3: 'unhealthy' });
    expectShare(counts.get(1), n, 0.25);
    expectShare(counts.get(2), n, 0.75);
  });

  it('returns null for a pool with no candidate', () => {
    expect(
      pickMember(
        WEIGHTED,
        4,
        healthOf({ 1: 'unhealthy', 2: 'unhealthy', 3: 'unhealthy' }),
        Math.random,
        null,
      ),
    ).toBeNull();
  });
});

describe('pickMember: failover', () => {
  const FAILOVER = pool(
    2,
    [
      member(1, '10.0.0.1', { priority: 2 }),
      member(2, '10.0.0.2', { priority: 1, weight: 1 }),
      member(3, '10.0.0.3', { priority: 1, weight: 3 }),
      member(4, '10.0.0.4', { priority: 0, enabled: false }),
      member(5, '10.0.0.5', { priority: 3 }),
    ],
    { algorithm: 'failover' },
  );

  it('answers from the lowest priority, weighted among equals', () => {
    const n = 40_000;
    const counts = draw(FAILOVER, n, 5);
    expect([...counts.keys()].sort()).toEqual([2, 3]);
    expectShare(counts.get(3), n, 0.75);
  });

  it('moves to the next priority only when the whole tier is down', () => {
    expect([...draw(FAILOVER, 1000, 5, { 2: 'unhealthy' }).keys()]).toEqual([3]);
    expect([...draw(FAILOVER, 1000, 5, { 2: 'unhealthy', 3: 'unhealthy' }).keys()]).toEqual([1]);
    expect([...draw(FAILOVER, 1000, 5, { 1: 'unhealthy', 2: 'unhealthy', 3: 'unhealthy' }).keys()]).toEqual([
      5,
    ]);
  });
});

describe('pickMember: session affinity (weighted rendezvous)', () => {
  const SUBNETS = 10_000;
  const keys = Array.from({ length: SUBNETS }, (_, i) => subnetKeyOfText(`10.${i >> 8}.${i & 255}.0`, 24));
  const AFFINE = pool(
    3,
    [1, 2, 3, 4, 5].map((id) => member(id, `10.0.0.${id}`, { weight: id === 5 ? 40 : 15 })),
    { sessionAffinity: 'client_ip' },
  );
  const never = (): number => {
    throw new Error('affinity must not use the random source');
  };
  const assign = (statuses: Record<number, MemberHealth>): number[] =>
    keys.map((k) => pickMember(AFFINE, 4, healthOf(statuses), never, k)!.id);

  it('spreads subnets in proportion to weight', () => {
    const before = assign({});
    const count = (id: number): number => before.filter((m) => m === id).length;
    expectShare(count(5), SUBNETS, 0.4);
    for (const id of [1, 2, 3, 4]) expectShare(count(id), SUBNETS, 0.15);
  });

  it('moves only the clients of a member that fails, and they come back', () => {
    const before = assign({});
    const during = assign({ 3: 'unhealthy' });
    let moved = 0;
    for (let i = 0; i < SUBNETS; i++) {
      if (before[i] === 3) {
        expect(during[i]).not.toBe(3);
        moved++;
      } else {
        expect(during[i]).toBe(before[i]);
      }
    }
    expect(moved).toBeGreaterThan(1000);
    expect(assign({})).toEqual(before);
  });

  it('keeps failover tiers: affinity inside the lowest healthy priority', () => {
    const tiered = pool(
      4,
      [
        member(1, '10.0.0.1', { priority: 0 }),
        member(2, '10.0.0.2', { priority: 0 }),
        member(3, '10.0.0.3', { priority: 1 }),
      ],
      { algorithm: 'failover', sessionAffinity: 'client_ip' },
    );
    const picks = new Set(keys.slice(0, 500).map((k) => pickMember(tiered, 4, healthOf(), never, k)!.id));
    expect(picks).toEqual(new Set([1, 2]));
  });
});

describe('poolSkipReason', () => {
  it('distinguishes disabled, wrong family and unhealthy', () => {
    expect(poolSkipReason(pool(1, [member(1, '10.0.0.1')], { enabled: false }), 4, healthOf())).toBe(
      'disabled',
    );
    expect(poolSkipReason(pool(1, [member(1, '10.0.0.1')]), 6, healthOf())).toBe('no_members_of_family');
    expect(poolSkipReason(pool(1, [member(1, '10.0.0.1', { enabled: false })]), 4, healthOf())).toBe(
      'no_members_of_family',
    );
    expect(poolSkipReason(pool(1, [member(1, '10.0.0.1')]), 4, healthOf({ 1: 'unhealthy' }))).toBe(
      'no_healthy_members',
    );
    expect(poolSkipReason(pool(1, [member(1, '10.0.0.1')]), 4, healthOf({ 1: 'unknown' }))).toBeNull();
  });
});
