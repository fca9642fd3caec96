import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.ts';
import type { Bus } from './bus.ts';
import { MemoryBus } from './memory-bus.ts';
import { RedisBus } from './redis-bus.ts';

const redisUrl = process.env.REDIS_URL;

interface Pair {
  a: Bus;
  b: Bus;
}

/** Two handles on one bus: two processes' view of Redis, or the same in-process bus twice. */
const backends: [string, () => Pair][] = [
  [
    'memory',
    () => {
      const bus = new MemoryBus(new ManualClock());
      return { a: bus, b: bus };
    },
  ],
];
if (redisUrl) {
  backends.push([
    'redis',
    () => {
      const prefix = `test:${randomBytes(4).toString('hex')}:`;
      return { a: new RedisBus(redisUrl, prefix), b: new RedisBus(redisUrl, prefix) };
    },
  ]);
}

describe.each(backends)('bus on %s', (_name, make) => {
  const { a, b } = make();
  afterAll(async () => {
    await a.close();
    if (b !== a) await b.close();
  });

  it('delivers published messages to subscribers of another handle until they unsubscribe', async () => {
    const got: unknown[] = [];
    let wake: () => void = () => undefined;
    const unsubscribe = await b.subscribe('zone-changed', (m) => {
      got.push(m);
      wake();
    });
    const arrived = new Promise<void>((resolve) => (wake = resolve));
    await a.publish('zone-changed', { zoneId: 7, deleted: false });
    await arrived;
    expect(got).toEqual([{ zoneId: 7, deleted: false }]);
    await unsubscribe();
    await a.publish('zone-changed', { zoneId: 8 });
    await a.publish('other', {}); // a round trip after the first publish
    expect(got).toHaveLength(1);
  });

  it('adds and reads counters', async () => {
    await a.incrementCounters('stats:1', { total: 2, A: 1 }, 60);
    await b.incrementCounters('stats:1', { total: 3, AAAA: 3 }, 60);
    expect(await a.readCounters('stats:1')).toEqual({ total: 5, A: 1, AAAA: 3 });
    expect(await a.readCounters('stats:none')).toEqual({});
  });

  it('counts a sliding window and says when the oldest event leaves it', async () => {
    const t0 = 1_000_000;
    expect((await a.slidingWindowHit('w', t0, 60_000, 2)).allowed).toBe(true);
    expect((await b.slidingWindowHit('w', t0 + 10_000, 60_000, 2)).allowed).toBe(true);
    const refused = await a.slidingWindowHit('w', t0 + 20_000, 60_000, 2);
    expect(refused).toEqual({ allowed: false, count: 2, retryAfterMs: 40_000 });
    expect((await a.slidingWindowHit('w', t0 + 60_000, 60_000, 2)).allowed).toBe(true);
    expect((await a.slidingWindowCount('w', t0 + 60_000, 60_000)).count).toBe(2);
    await a.slidingWindowRecord('w', t0 + 61_000, 60_000);
    expect((await b.slidingWindowCount('w', t0 + 61_000, 60_000)).count).toBe(3);
  });

  it('drops the events that left a full window before refusing, and counts them out', async () => {
    const t0 = 2_000_000;
    for (const dt of [0, 1_000, 2_000])
      expect((await a.slidingWindowHit('f', t0 + dt, 10_000, 3)).allowed).toBe(true);
    expect((await b.slidingWindowHit('f', t0 + 9_000, 10_000, 3)).allowed).toBe(false);
    // Two of the three have left the window: two more fit, then it is full until 12 s.
    expect((await a.slidingWindowHit('f', t0 + 11_500, 10_000, 3)).allowed).toBe(true);
    expect((await b.slidingWindowHit('f', t0 + 11_600, 10_000, 3)).allowed).toBe(true);
    expect(await a.slidingWindowHit('f', t0 + 11_700, 10_000, 3)).toEqual({
      allowed: false,
      count: 3,
      retryAfterMs: 300,
    });
    expect((await a.slidingWindowCount('f', t0 + 12_000, 10_000)).count).toBe(2);
  });

  it('gives a lock to one holder at a time', async () => {
    expect(await a.tryLock('lock:member:1', 5_000)).toBe(true);
    expect(await b.tryLock('lock:member:1', 5_000)).toBe(false);
    await a.unlock('lock:member:1');
    expect(await b.tryLock('lock:member:1', 5_000)).toBe(true);
  });
});
