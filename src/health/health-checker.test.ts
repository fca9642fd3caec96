import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Bus } from '../kernel/events/bus.ts';
import { MemoryBus } from '../kernel/events/memory-bus.ts';
import { RedisBus } from '../kernel/events/redis-bus.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import { HealthChecker, type MemberStatusSink, type RecordedHealth } from './health-checker.ts';
import type { HealthStatus, HealthTarget, ProbeResult } from './health-target.ts';
import {
  MEMBER_HEALTH_CHANNEL,
  parseMemberHealthEvent,
  type MemberHealthEvent,
} from './member-health-channel.ts';
import type { MemberProber } from './probe-member.ts';

const silent = { warn: () => {}, error: () => {}, debug: () => {} };

function targets(n: number): HealthTarget[] {
  return Array.from({ length: n }, (_, i) => ({
    memberId: i + 1,
    zoneId: 7,
    poolId: 3,
    address: '192.0.2.1',
    mode: 'tcp' as const,
    path: '/',
    port: null,
    timeoutS: 5,
  }));
}

/** Stores each probe's status as the member's (no quorum, no damping), in a map. */
class MapSink implements MemberStatusSink {
  readonly statuses = new Map<number, HealthStatus>();
  async record(target: HealthTarget, result: ProbeResult): Promise<RecordedHealth | null> {
    const before = this.statuses.get(target.memberId);
    if (before === undefined) return null;
    this.statuses.set(target.memberId, result.status);
    return { previous: before, status: result.status };
  }
}

/** Counts probes per member; the verdict comes from `down`. */
function countingProber(clock: ManualClock, down: Set<number> = new Set()) {
  const counts = new Map<number, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const probe: MemberProber = async (t) => {
    counts.set(t.memberId, (counts.get(t.memberId) ?? 0) + 1);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    await new Promise((r) => setImmediate(r));
    inFlight--;
    const bad = down.has(t.memberId);
    return {
      status: bad ? 'unhealthy' : 'healthy',
      error: bad ? 'connection refused' : null,
      latencyMs: 1,
      checkedAt: clock.now(),
    };
  };
  return { probe, counts, maxInFlight: () => maxInFlight };
}

async function runMinutes(clock: ManualClock, checkers: HealthChecker[], minutes: number): Promise<void> {
  for (let s = 0; s < minutes * 60; s++) {
    clock.advance(1000);
    for (const c of checkers) await c.tick();
    await Promise.all(checkers.map((c) => c.idle()));
  }
}

const backends: [string, (clock: ManualClock) => [Bus, Bus]][] = [
  [
    'memory',
    (clock) => {
      const bus = new MemoryBus(clock);
      return [bus, bus];
    },
  ],
];
const redisUrl = process.env.REDIS_URL;
if (redisUrl) {
  backends.push([
    'redis',
    () => {
      const prefix = `test:${randomBytes(4).toString('hex')}:`;
      return [new RedisBus(redisUrl, prefix), new RedisBus(redisUrl, prefix)];
    },
  ]);
}

describe('health checker', () => {
  it('probes 10,000 members once a minute each, at most 50 in flight', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 30));
    const bus = new MemoryBus(clock);
    const prober = countingProber(clock);
    const list = targets(10_000);
    const checker = new HealthChecker({
      source: { listTargets: async () => list },
      sink: new MapSink(),
      bus,
      clock,
      probe: prober.probe,
      log: silent,
    });
    await checker.tick();
    await runMinutes(clock, [checker], 2);
    expect(prober.counts.size).toBe(10_000);
    expect([...prober.counts.values()].every((n) => n === 2)).toBe(true);
    expect(prober.maxInFlight()).toBe(50); // ~167 due per second: the bound is what held it
    await checker.stop();
  });

  it('publishes a status change (and only a change) with member and zone', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const bus = new MemoryBus(clock);
    const events: MemberHealthEvent[] = [];
    await bus.subscribe(MEMBER_HEALTH_CHANNEL, (m) => events.push(parseMemberHealthEvent(m)!));
    const down = new Set<number>();
    const sink = new MapSink();
    const list = targets(3);
    for (const t of list) sink.statuses.set(t.memberId, 'unknown');
    sink.statuses.delete(3); // member 3 was deleted meanwhile: nothing to publish
    const checker = new HealthChecker({
      source: { listTargets: async () => list },
      sink,
      bus,
      clock,
      probe: countingProber(clock, down).probe,
      log: silent,
    });
    await checker.tick();
    await runMinutes(clock, [checker], 1);
    await new Promise((r) => setImmediate(r));
    expect(events.sort((a, b) => a.memberId - b.memberId)).toEqual([
      { memberId: 1, zoneId: 7, status: 'healthy' },
      { memberId: 2, zoneId: 7, status: 'healthy' },
    ]);
    events.length = 0;
    down.add(2);
    await runMinutes(clock, [checker], 1);
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual([{ memberId: 2, zoneId: 7, status: 'unhealthy' }]);
    expect(sink.statuses.get(2)).toBe('unhealthy');

    // A check run now (API) records and publishes like a scheduled one.
    events.length = 0;
    down.delete(2);
    expect(await checker.checkNow(list[1]!)).toMatchObject({
      result: { status: 'healthy' },
      status: 'healthy',
    });
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual([{ memberId: 2, zoneId: 7, status: 'healthy' }]);
    await checker.stop();
  });

  it('rejects malformed health events', () => {
    expect(parseMemberHealthEvent({ memberId: 1, zoneId: 2, status: 'healthy' })).not.toBeNull();
    expect(parseMemberHealthEvent({ memberId: '1', zoneId: 2, status: 'healthy' })).toBeNull();
    expect(parseMemberHealthEvent({ memberId: 1, zoneId: 2, status: 'sick' })).toBeNull();
    expect(parseMemberHealthEvent(null)).toBeNull();
  });

  it('checkers of two PoPs each probe every member once per minute', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 5));
    const bus = new MemoryBus(clock);
    const prober = countingProber(clock);
    const list = targets(200);
    const make = (pop: string) =>
      new HealthChecker({
        source: { listTargets: async () => list },
        sink: new MapSink(),
        bus,
        clock,
        pop,
        probe: prober.probe,
        log: silent,
      });
    const checkers = [make('FRA'), make('FRA'), make('AMS')];
    await Promise.all(checkers.map((c) => c.tick()));
    await runMinutes(clock, checkers, 2);
    // FRA's two checkers share one probe per member per minute, AMS probes on its own.
    expect([...prober.counts.values()].every((n) => n === 4)).toBe(true);
    expect(prober.counts.size).toBe(200);
    await Promise.all(checkers.map((c) => c.stop()));
  });

  describe.each(backends)('two checkers over the %s bus', (_name, makeBuses) => {
    it('probe each member once per minute in total; a dead checker’s members are taken over', async () => {
      const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 5));
      const [busA, busB] = makeBuses(clock);
      const prober = countingProber(clock);
      const list = targets(500);
      const make = (bus: Bus) =>
        new HealthChecker({
          source: { listTargets: async () => list },
          sink: new MapSink(),
          bus,
          clock,
          probe: prober.probe,
          log: silent,
        });
      const a = make(busA);
      const b = make(busB);
      try {
        await Promise.all([a.tick(), b.tick()]);
        await runMinutes(clock, [a, b], 2);
        expect([...prober.counts.values()].every((n) => n === 2)).toBe(true);
        expect(prober.counts.size).toBe(500);

        await a.stop(); // "dies"
        await runMinutes(clock, [b], 1);
        expect([...prober.counts.values()].every((n) => n === 3)).toBe(true);
      } finally {
        await a.stop();
        await b.stop();
        await busA.close();
        if (busB !== busA) await busB.close();
      }
    });
  });
});
