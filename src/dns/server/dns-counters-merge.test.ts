import { describe, expect, it } from 'vitest';
import { createOutcome, type ClientInfo } from './handle-message.ts';
import { createDnsCounters, queryIndex } from './dns-counters.ts';
import {
  MERGED_BY_MAX,
  loadMergedCounters,
  snapshotCounters,
  snapshotQueryTotal,
} from './dns-counters-merge.ts';

const udp: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 1, family: 4 };

/** A worker's counters after `n` answered UDP queries, its last store change at `changedMs`. */
function workerCounters(n: number, changedMs: number, buildS: number) {
  const c = createDnsCounters();
  const handler = c.wrapHandler((_q, _client, out) => {
    out.zoneId = 1;
    out.rcode = 0;
    return null;
  });
  const out = createOutcome();
  for (let i = 0; i < n; i++) handler(new Uint8Array(12), udp, out);
  c.rrlDrops = n;
  c.lastStoreChangeMs = changedMs;
  c.lastStoreBuildS = buildS;
  return c;
}

describe('DnsCounters across worker processes', () => {
  it('copies every numeric field as plain data (what crosses IPC) and no function', () => {
    const snap = snapshotCounters(workerCounters(3, 1000, 0.5));
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
    expect(snap.rrlDrops).toBe(3);
    expect(Array.isArray(snap.queries)).toBe(true);
    expect(Object.values(snap).every((v) => typeof v === 'number' || Array.isArray(v))).toBe(true);
    expect(snapshotQueryTotal(snap)).toBe(3);
  });

  it('sums counters and takes the latest store change over the parts; no parts → zero', () => {
    const merged = createDnsCounters();
    const a = snapshotCounters(workerCounters(3, 1000, 0.5));
    const b = snapshotCounters(workerCounters(4, 2000, 0.25));
    loadMergedCounters(merged, [a, b]);
    expect(merged.queries[queryIndex(0, 0, 0)]).toBe(7);
    expect(merged.rrlDrops).toBe(7);
    expect(merged.lastStoreChangeMs).toBe(2000);
    expect(merged.lastStoreBuildS).toBe(0.5);
    expect([...MERGED_BY_MAX].sort()).toEqual(['lastStoreBuildS', 'lastStoreChangeMs']);
    loadMergedCounters(merged, []);
    expect(merged.queries.every((n) => n === 0)).toBe(true);
    expect(merged.rrlDrops).toBe(0);
  });

  it('carries a numeric field added to DnsCounters without being told about it', () => {
    const worker = Object.assign(workerCounters(1, 0, 0), { addedLater: 2 });
    const merged = Object.assign(createDnsCounters(), { addedLater: 0 });
    loadMergedCounters(merged, [snapshotCounters(worker), snapshotCounters(worker)]);
    expect(merged.addedLater).toBe(4);
  });
});
