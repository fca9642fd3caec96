import { describe, expect, it } from 'vitest';
import { createQueryStats, MS_PER_HOUR } from './query-stats.ts';
import type { QueryStatsRow } from './query-stats.ts';

describe('query stats', () => {
  it('counts per zone by qtype mnemonic and rcode, per hour, and resets on flush', () => {
    let t = Date.UTC(2025, 0, 1, 13, 59, 59);
    const batches: QueryStatsRow[][] = [];
    const stats = createQueryStats({ sink: { flush: (b) => batches.push(b) }, now: () => t });
    stats.record(1, 1, 0);
    stats.record(1, 1, 0);
    stats.record(1, 28, 3);
    stats.record(2, 65280, 16);
    stats.record(-1, 1, 5); // no zone: not counted
    stats.record(1, -1, 1); // no question: not counted
    t += 2000; // next hour
    stats.record(1, 15, 0);
    stats.flush();
    expect(batches).toHaveLength(1);
    const rows = batches[0]!.sort((a, b) => a.zoneId - b.zoneId || a.hour.localeCompare(b.hour));
    expect(rows).toEqual([
      {
        zoneId: 1,
        hour: '2025-01-01T13:00:00.000Z',
        byType: { A: 2, AAAA: 1 },
        byRcode: { NOERROR: 2, NXDOMAIN: 1 },
        total: 3,
      },
      { zoneId: 1, hour: '2025-01-01T14:00:00.000Z', byType: { MX: 1 }, byRcode: { NOERROR: 1 }, total: 1 },
      {
        zoneId: 2,
        hour: '2025-01-01T13:00:00.000Z',
        byType: { TYPE65280: 1 },
        byRcode: { BADVERS: 1 },
        total: 1,
      },
    ]);
    stats.flush();
    expect(batches).toHaveLength(1);
    t += MS_PER_HOUR;
    stats.record(3, 1, 0);
    stats.stop();
    expect(batches).toHaveLength(2);
  });

  it('a throwing sink loses only its batch', () => {
    let calls = 0;
    const stats = createQueryStats({
      sink: {
        flush: () => {
          calls++;
          throw new Error('sink down');
        },
      },
      now: () => 0,
    });
    stats.record(1, 1, 0);
    expect(() => stats.flush()).not.toThrow();
    stats.record(1, 1, 0);
    stats.flush();
    expect(calls).toBe(2);
  });

  it('flushes on its timer', async () => {
    let resolve: (b: QueryStatsRow[]) => void = () => undefined;
    const promise = new Promise<QueryStatsRow[]>((r) => (resolve = r));
    const stats = createQueryStats({ sink: { flush: (b) => resolve(b) }, flushIntervalMs: 5 });
    stats.start();
    stats.record(7, 1, 0);
    const batch = await promise;
    stats.stop();
    expect(batch[0]!.zoneId).toBe(7);
  });
});
