import { describe, expect, it } from 'vitest';
import { ZoneStore } from '../zone/zone-store.ts';
import { createOutcome, type ClientInfo } from './handle-message.ts';
import { BUS_LAG_BUCKETS_S, LATENCY_SAMPLE_EVERY, createDnsCounters, queryIndex } from './dns-counters.ts';
import { RRL_DROP, RRL_SEND, RRL_SLIP, type ResponseRateLimiter } from './response-rate-limit.ts';

const udp: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 1, family: 4 };
const tcp: ClientInfo = { transport: 'tcp', address: '192.0.2.1', port: 1, family: 4 };

describe('createDnsCounters', () => {
  it('counts queries by zone class, transport and rcode, and times one in LATENCY_SAMPLE_EVERY', () => {
    const c = createDnsCounters();
    const handler = c.wrapHandler((_q, _client, out) => {
      out.zoneId = 7;
      out.rcode = 3;
      return null;
    });
    const out = createOutcome();
    for (let i = 0; i < LATENCY_SAMPLE_EVERY * 2; i++) handler(new Uint8Array(12), udp, out);
    handler(new Uint8Array(12), tcp, out);
    expect(c.queries[queryIndex(0, 0, 3)]).toBe(LATENCY_SAMPLE_EVERY * 2);
    expect(c.queries[queryIndex(0, 1, 3)]).toBe(1);
    expect(c.latency.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('counts RRL drops and slips', () => {
    const c = createDnsCounters();
    const decisions = [RRL_SEND, RRL_SLIP, RRL_DROP, RRL_DROP] as const;
    let i = 0;
    const limiter: ResponseRateLimiter = { enabled: true, decide: () => decisions[i++]! };
    const wrapped = c.wrapLimiter(limiter);
    for (let k = 0; k < 4; k++) wrapped.decide(udp, createOutcome(), new Uint8Array(0));
    expect([c.rrlSlips, c.rrlDrops]).toEqual([1, 2]);
  });

  it('records when the store last changed', () => {
    const c = createDnsCounters();
    const store = c.trackStore(new ZoneStore());
    expect(c.lastStoreChangeMs).toBe(0);
    store.replaceAll([]);
    expect(c.lastStoreChangeMs).toBeGreaterThan(0);
    expect(store.size).toBe(0);
  });

  it('files bus lags in their buckets, the last one above every bound', () => {
    const c = createDnsCounters();
    c.observeBusLag(0);
    c.observeBusLag(BUS_LAG_BUCKETS_S[0]);
    c.observeBusLag(0.02);
    c.observeBusLag(3600);
    expect(c.busLag[0]).toBe(2);
    expect(c.busLag[BUS_LAG_BUCKETS_S.indexOf(0.05)]).toBe(1);
    expect(c.busLag[BUS_LAG_BUCKETS_S.length]).toBe(1);
    expect(c.busLagSumS).toBeCloseTo(3600.021, 6);
  });
});
