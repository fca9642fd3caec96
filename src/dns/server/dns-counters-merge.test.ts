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

/** A compiled load balancer as the counter sees it (only its id and hostname are read). */
const compiledLb = (id: number, hostname: string) =>
  ({ lb: { id, hostname } }) as unknown as Parameters<
    ReturnType<typeof createDnsCounters>['lbAnswers']['count']
  >[1];
const decision = (cascadeHit: 'default' | 'serve_last', reason: 'ok' | 'all_unhealthy_serve_last') =>
  ({ cascadeHit, reason }) as Parameters<ReturnType<typeof createDnsCounters>['lbAnswers']['count']>[2];

describe('DnsCounters across worker processes', () => {
  it('sums answers at load balancers key by key over the workers', () => {
    const [a, b] = [createDnsCounters(), createDnsCounters()];
    const www = compiledLb(1, 'www.example.com');
    for (let i = 0; i < 3; i++) a.lbAnswers.count('example.com', www, decision('default', 'ok'));
    b.lbAnswers.count('example.com', compiledLb(1, 'www.example.com'), decision('default', 'ok'));
    b.lbAnswers.count('example.com', www, decision('serve_last', 'all_unhealthy_serve_last'));
    const merged = createDnsCounters();
    loadMergedCounters(
      merged,
      [a, b].map((c) => JSON.parse(JSON.stringify(snapshotCounters(c)))),
    );
    expect(merged.lbAnswers.snapshot()).toEqual({
      'example.com|www.example.com|default|ok': 4,
      'example.com|www.example.com|serve_last|all_unhealthy_serve_last': 1,
    });
  });

  it('copies every numeric field as plain data (what crosses IPC) and no function', () => {
    const snap = snapshotCounters(workerCounters(3, 1000, 0.5));
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
    expect(snap.rrlDrops).toBe(3);
    expect(Array.isArray(snap.queries)).toBe(true);
    expect(
      Object.entries(snap).every(
        ([k, v]) => typeof v === 'number' || Array.isArray(v) || (k === 'lbAnswers' && typeof v === 'object'),
      ),
    ).toBe(true);
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
