/**
 * What the answer cache keeps, or keeps only under conditions (answer-cache.ts,
 * MessageOutcome.cacheable): answers at a load balancer's hostname are kept with the health
 * generation they were made under, so a health change is answered at once (steered-answer-cache.test.ts
 * covers which decisions are kept). A record type that a load balancer does not answer (TXT at its
 * hostname) comes from the zone's records and is kept. A signed zone's answers are kept, those with
 * signatures (DO set) marked `signed` (kept for a bounded time; test/conformance/answer-cache-identity.test.ts
 * checks their bytes).
 */
import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../../test/conformance/query-wire-builder.ts';
import type { ZoneDnssec } from '../dnssec/dnssec-config.ts';
import { generateDnssecKey } from '../dnssec/dnssec-key.ts';
import { MemberHealthTable } from '../steering/member-health-table.ts';
import { zoneFromText } from '../../testing/dns-zone-fixture.ts';
import { loadBalancer, member, pool } from '../../testing/steering-fixture.ts';
import { ZoneStore } from '../zone/zone-store.ts';
import { createAnswerCacheCounters } from './answer-cache.ts';
import { createMessageHandlerWithContext, createOutcome } from './handle-message.ts';
import type { ClientInfo } from './handle-message.ts';

const UDP: ClientInfo = { transport: 'udp', address: '198.51.100.7', port: 5353, family: 4 };
const SLOT = 4096;

const ZONE = `
$ORIGIN example.com.
$TTL 3600
@ SOA ns1 hostmaster 1 7200 3600 1209600 300
@ NS ns1
ns1 A 192.0.2.53
www TXT "ordinary record at a load balancer name"
`;

function cachedHandler(store: ZoneStore, health?: MemberHealthTable) {
  const counters = createAnswerCacheCounters();
  const h = createMessageHandlerWithContext(store, {
    ...(health ? { health } : {}),
    answerCache: { bytes: 1 << 20, counters },
  });
  const out = createOutcome();
  const src = new Uint8Array(SLOT);
  const dst = new Uint8Array(SLOT);
  const ask = (q: Uint8Array): Buffer => {
    src.set(q);
    const n = h.handleSlot(src, 0, q.length, UDP, out, dst, 0, SLOT);
    return Buffer.from(dst.subarray(0, n));
  };
  return { ask, counters, out };
}

describe('answer cache: what it does not keep', () => {
  it('answers at a load balancer hostname follow health at once', () => {
    const health = new MemberHealthTable();
    const store = new ZoneStore();
    store.replaceAll([
      {
        ...zoneFromText(1, 'example.com', ZONE),
        steering: {
          pools: [pool(1, [member(11, '203.0.113.1')]), pool(2, [member(21, '203.0.113.2')])],
          loadBalancers: [loadBalancer({ id: 1, hostname: 'www.example.com', defaultPools: [1, 2] })],
        },
      },
    ]);
    const c = cachedHandler(store, health);
    const a = buildQuery({ name: 'www.example.com', qtype: 1, edns: { payload: 1232 } });
    for (let i = 0; i < 3; i++) expect(c.ask(a).includes(Buffer.from([203, 0, 113, 1]))).toBe(true);
    expect(c.out.cacheable).toBe(true);
    expect(c.counters.answerCacheHits).toBe(1);
    health.set(11, 'unhealthy');
    expect(c.ask(a).includes(Buffer.from([203, 0, 113, 2]))).toBe(true);
    expect(c.counters.answerCacheHits).toBe(1);
    health.set(11, 'healthy');
    expect(c.ask(a).includes(Buffer.from([203, 0, 113, 1]))).toBe(true);
    expect(c.counters.answerCacheHits).toBe(1);

    // TXT at the same name is the zone's record: kept, and answered from the cache.
    const txt = buildQuery({ name: 'www.example.com', qtype: 16, edns: { payload: 1232 } });
    const first = c.ask(txt);
    c.ask(txt);
    expect(c.ask(txt)).toEqual(first);
    expect(c.counters.answerCacheHits).toBe(2);
  });

  it("keeps a signed zone's answers, with DO (marked signed) or without", () => {
    const ksk = generateDnssecKey(13, 'ksk');
    const zsk = generateDnssecKey(13, 'zsk');
    const dnssec: ZoneDnssec = {
      algorithm: 13,
      ksk: { algorithm: 13, keyTag: ksk.keyTag, privateKeyPkcs8: ksk.privateKeyPkcs8 },
      zsk: { algorithm: 13, keyTag: zsk.keyTag, privateKeyPkcs8: zsk.privateKeyPkcs8 },
      nsecTtl: 300,
    };
    const store = new ZoneStore();
    store.replaceAll([{ ...zoneFromText(1, 'example.com', ZONE), dnssec }]);
    const c = cachedHandler(store);
    for (const doBit of [true, false]) {
      const q = buildQuery({ name: 'ns1.example.com', qtype: 1, edns: { payload: 1232, do: doBit } });
      const first = c.ask(q);
      for (let i = 0; i < 2; i++) expect(c.ask(q)).toEqual(first);
      expect(c.out.cacheable).toBe(true);
      expect(c.out.signed).toBe(doBit);
    }
    expect(c.counters.answerCacheStores).toBe(2);
    expect(c.counters.answerCacheHits).toBe(2);
  });
});
