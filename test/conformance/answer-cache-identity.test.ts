/**
 * The UDP answer cache (src/dns/server/answer-cache.ts) answers byte for byte what the handler
 * answers without it: every query of the differential and malformed corpora, each in random
 * variations (ID, 0x20 letter case, RD, EDNS payload and DO), asked twice through the cached slot
 * entry and compared with the plain handler's answer and outcome. The same for answers with DO
 * set at a signed zone (positive, NODATA, wildcard, referral, CNAME and NXDOMAIN with their RRSIGs
 * and proofs), and their bounded lifetime. Then invalidation: a changed zone, a new child zone and a
 * removed zone are answered as the plain handler answers them.
 */
import { describe, expect, it } from 'vitest';
import {
  createAnswerCacheCounters,
  createMessageHandler,
  createMessageHandlerWithContext,
  createOutcome,
  generateDnssecKey,
  SAMPLE_EVERY,
  SIGNED_ANSWER_LIFETIME_MS,
  WINDOW_LOOKUPS,
  ZoneStore,
  zoneDataFromText,
} from '../../src/dns/index.ts';
import type { ClientInfo, MessageOutcome, ZoneData, ZoneDnssec } from '../../src/dns/index.ts';
import { createSeededRandom } from '../../src/testing/seeded-random.ts';
import type { SeededRandom } from '../../src/testing/seeded-random.ts';
import { CONFORMANCE_ZONES } from './conformance-zones.ts';
import { buildMalformedCorpus } from './malformed-corpus.ts';
import { buildQueryCorpus } from './query-corpus.ts';
import { buildQuery } from './query-wire-builder.ts';

const UDP: ClientInfo = { transport: 'udp', address: '192.0.2.53', port: 5353, family: 4 };
const TCP: ClientInfo = { transport: 'tcp', address: '192.0.2.53', port: 5353, family: 4 };
const SLOT = 4096;
const PAYLOADS = [512, 600, 1232, 1400, 4096];

function storeOf(zones = CONFORMANCE_ZONES): ZoneStore {
  const store = new ZoneStore();
  store.replaceAll(zones.map(zoneDataFromText));
  return store;
}

/** End of the question name at 12, or -1 when it cannot be walked. */
function qnameEnd(q: Uint8Array): number {
  let p = 12;
  while (p < q.length) {
    const l = q[p]!;
    if (l === 0) return p + 1;
    if (l > 63) return -1;
    p += l + 1;
  }
  return -1;
}

/** A random variation of `wire` that a resolver could send for the same question. */
function vary(wire: Uint8Array, rnd: SeededRandom): Buffer {
  let q = Buffer.from(wire);
  if (q.length < 12) return q;
  q[0] = rnd.int(256);
  q[1] = rnd.int(256);
  if (rnd.int(4) === 0) q[2] = q[2]! ^ 0x01; // RD
  const end = qnameEnd(q);
  if (end > 0) {
    for (let i = 13; i < end; i++) {
      const c = q[i]!;
      const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
      if (letter && rnd.int(2) === 0) q[i] = c ^ 0x20;
    }
    const arcount = (q[10]! << 8) | q[11]!;
    const rest = q.length - (end + 4);
    if (arcount === 0 && rest === 0 && rnd.int(3) === 0) {
      const payload = rnd.pick(PAYLOADS);
      const opt = [0, 0, 41, payload >> 8, payload & 255, 0, 0, rnd.int(2) ? 0x80 : 0, 0, 0, 0];
      q = Buffer.concat([q, Buffer.from(opt)]);
      q[11] = 1;
    } else if (arcount === 1 && rest === 11 && q[end + 4] === 0 && q[end + 6] === 41 && rnd.int(2) === 0) {
      const payload = rnd.pick(PAYLOADS);
      q[end + 7] = payload >> 8;
      q[end + 8] = payload & 255;
      q[end + 11] = rnd.int(2) ? 0x80 : 0; // DO
    }
  }
  return q;
}

interface Pair {
  plain: (q: Uint8Array) => { bytes: string; out: MessageOutcome };
  cached: (q: Uint8Array) => { bytes: string; out: MessageOutcome };
  counters: ReturnType<typeof counters>;
}

function counters() {
  return createAnswerCacheCounters();
}

function pair(store: ZoneStore, bytes = 1 << 20, now?: () => number, client = UDP): Pair {
  const plainHandler = createMessageHandler(store);
  const c = counters();
  const cachedHandler = createMessageHandlerWithContext(store, {
    answerCache: { bytes, counters: c, ...(now ? { now } : {}) },
  });
  const out = createOutcome();
  const dst = new Uint8Array(3 * SLOT);
  // The query sits inside a larger buffer, as in a batch's receive area.
  const src = new Uint8Array(3 * SLOT);
  return {
    counters: c,
    plain: (q) => {
      const res = plainHandler(q, client, out);
      return { bytes: res === null ? 'none' : Buffer.from(res).toString('hex'), out: { ...out } };
    },
    cached: (q) => {
      src.set(q, SLOT);
      dst.fill(0xee);
      const n = cachedHandler.handleSlot(src, SLOT, q.length, client, out, dst, SLOT, SLOT);
      const bytes = n < 0 ? 'none' : Buffer.from(dst.subarray(SLOT, SLOT + n)).toString('hex');
      // Nothing written outside the slot's answer.
      expect(dst[SLOT - 1]).toBe(0xee);
      // Answers are copied a word at a time: nothing past the last word.
      if (n >= 0) expect(dst[SLOT + ((n + 3) & ~3)]).toBe(0xee);
      return { bytes, out: { ...out } };
    },
  };
}

/**
 * Asks `q` three times through the cache (a question is stored on its second miss, answered from
 * the cache on the third) and once plainly; all must agree.
 */
function expectSame(p: Pair, q: Uint8Array, label: string): void {
  const want = p.plain(q);
  for (const round of [1, 2, 3]) {
    const got = p.cached(q);
    expect(got.bytes, `${label} (round ${round})`).toBe(want.bytes);
    expect(got.out, `${label} outcome (round ${round})`).toEqual(want.out);
  }
}

describe('answer cache: byte-identical to the uncached path', () => {
  it('answers the whole query corpus and the malformed corpus alike in random variations', () => {
    const p = pair(storeOf());
    const rnd = createSeededRandom(20261124);
    const cases = [...buildQueryCorpus(), ...buildMalformedCorpus()];
    let asked = 0;
    for (const c of cases) {
      expectSame(p, c.wire, c.id);
      for (let k = 0; k < 4; k++) {
        const v = vary(c.wire, rnd);
        expectSame(p, v, `${c.id} variant ${v.toString('hex')}`);
        asked += 3;
      }
      asked += 3;
    }
    // The cache answered many of them (each variant's third ask at least, when cacheable).
    expect(cases.length).toBeGreaterThan(1000);
    expect(p.counters.answerCacheHits).toBeGreaterThan(asked / 4);
    expect(p.counters.answerCacheHits + p.counters.answerCacheMisses).toBe(asked);
  });

  it('answers the query corpus over TCP alike (its own cache: answers untruncated)', () => {
    const p = pair(storeOf(), 1 << 20, undefined, TCP);
    const rnd = createSeededRandom(20261130);
    for (const c of buildQueryCorpus()) {
      expectSame(p, c.wire, `${c.id} tcp`);
      expectSame(p, vary(c.wire, rnd), `${c.id} tcp variant`);
    }
    expect(p.counters.answerCacheHits).toBeGreaterThan(0);
  });

  it('stays identical in a cache far smaller than what it is asked (records overwritten)', () => {
    const p = pair(storeOf(), 64 * 1024);
    const rnd = createSeededRandom(7);
    const cases = buildQueryCorpus();
    for (let round = 0; round < 3; round++)
      for (const c of cases) expectSame(p, vary(c.wire, rnd), `${c.id} round ${round}`);
    expect(p.counters.answerCacheStores * 100).toBeGreaterThan(64 * 1024);
    expect(p.counters.answerCacheBoundBytes).toBeLessThanOrEqual(64 * 1024);
    expect(p.counters.answerCacheHits).toBeGreaterThan(0);
  });

  it('gives each 0x20 spelling its own letter case back', () => {
    const p = pair(storeOf());
    const a = buildQuery({ id: 1, name: 'www.example.com', qtype: 1, edns: { payload: 1232 } });
    const b = buildQuery({ id: 2, name: 'wWw.ExAmPlE.cOm', qtype: 1, edns: { payload: 1232 } });
    p.cached(a);
    p.cached(a);
    const hit = p.cached(b);
    expect(p.counters.answerCacheHits).toBe(1);
    expect(Buffer.from(hit.bytes, 'hex').subarray(0, 2).readUInt16BE()).toBe(2);
    expect(Buffer.from(hit.bytes, 'hex').includes(Buffer.from('wWw\x07ExAmPlE\x03cOm', 'latin1'))).toBe(true);
    expect(hit.bytes).toBe(p.plain(b).bytes);
  });
});

const SIGNED_ZONE = `
$ORIGIN signed.example.
$TTL 3600
@ SOA ns1 hostmaster 1 7200 3600 1209600 300
@ NS ns1
@ NS ns2
@ MX 10 mail
ns1 A 192.0.2.1
ns2 A 192.0.2.2
mail A 192.0.2.25
www A 192.0.2.80
www AAAA 2001:db8::80
www TXT "v=1" "${'t'.repeat(40)}"
alias CNAME www
dangling CNAME gone
*.wild A 192.0.2.99
*.wild TXT "wild"
secure NS ns.secure
secure DS 12345 13 2 ${'ab'.repeat(32)}
ns.secure A 192.0.2.53
insecure NS ns.other.example.
`;

function signedZone(): ZoneData {
  const ksk = generateDnssecKey(13, 'ksk');
  const zsk = generateDnssecKey(13, 'zsk');
  const dnssec: ZoneDnssec = {
    algorithm: 13,
    ksk: { algorithm: 13, keyTag: ksk.keyTag, privateKeyPkcs8: ksk.privateKeyPkcs8 },
    zsk: { algorithm: 13, keyTag: zsk.keyTag, privateKeyPkcs8: zsk.privateKeyPkcs8 },
    nsecTtl: 300,
  };
  const data = zoneDataFromText({ id: 7, domain: 'signed.example', text: SIGNED_ZONE });
  const dnskeys = [ksk, zsk].map((k) => ({ name: 'signed.example', type: 48, ttl: 3600, rdata: k.dnskey }));
  return { ...data, records: [...data.records, ...dnskeys], dnssec };
}

/** Questions at the signed zone: every kind of answer the signing stage makes. */
const SIGNED_QUESTIONS: ReadonlyArray<[string, number, string]> = [
  ['www.signed.example', 1, 'positive'],
  ['www.signed.example', 28, 'positive'],
  ['www.signed.example', 16, 'positive'],
  ['signed.example', 15, 'positive'],
  ['signed.example', 48, 'positive'],
  ['signed.example', 2, 'positive'],
  ['www.signed.example', 33, 'nodata'],
  ['ns1.signed.example', 15, 'nodata'],
  ['signed.example', 33, 'nodata'],
  ['alias.signed.example', 1, 'positive'],
  ['alias.signed.example', 33, 'nodata'],
  ['dangling.signed.example', 1, 'nxdomain'],
  ['w1.wild.signed.example', 1, 'wildcard'],
  ['Some.Deeper.wild.signed.example', 16, 'wildcard'],
  ['w2.wild.signed.example', 28, 'wildcard'],
  ['www.secure.signed.example', 1, 'referral'],
  ['www.insecure.signed.example', 1, 'referral'],
  ['nx1.signed.example', 1, 'nxdomain'],
];

describe('answer cache: signed answers (DO set)', () => {
  it.each([UDP, TCP])(
    'answers each kind byte for byte as the signing path, at every payload size (%o)',
    (client) => {
      const store = new ZoneStore();
      store.replaceAll([signedZone()]);
      const p = pair(store, 1 << 20, undefined, client);
      for (const [name, qtype, kind] of SIGNED_QUESTIONS) {
        for (const payload of PAYLOADS) {
          for (const doBit of [true, false]) {
            const q = buildQuery({ name, qtype, edns: { payload, do: doBit } });
            expectSame(p, q, `${name}/${qtype} payload ${payload} DO ${doBit}`);
            const out = p.cached(q).out;
            expect(out.kind, `${name}/${qtype}`).toBe(kind);
            expect(out.signed).toBe(doBit);
            expect(out.cacheable).toBe(true);
          }
        }
        const signed = p.cached(buildQuery({ name, qtype, edns: { payload: 1232, do: true } })).bytes;
        // RRSIG (type 46) in the answer or the authority section.
        expect(signed, `${name}/${qtype} signed`).toMatch(/002e0001/);
      }
      // Every question's third ask (and the check after it) was a hit.
      expect(p.counters.answerCacheHits).toBeGreaterThanOrEqual(
        SIGNED_QUESTIONS.length * PAYLOADS.length * 2 * 2,
      );
    },
  );

  it('uses an answer with signatures for a bounded time only; one without DO until the zone changes', () => {
    const store = new ZoneStore();
    store.replaceAll([signedZone()]);
    let nowMs = 1_000_000;
    const p = pair(store, 1 << 20, () => nowMs);
    const withDo = buildQuery({ name: 'www.signed.example', qtype: 1, edns: { payload: 1232, do: true } });
    const withoutDo = buildQuery({ name: 'www.signed.example', qtype: 1, edns: { payload: 1232 } });
    for (const q of [withDo, withoutDo]) expectSame(p, q, 'warm');
    nowMs += SIGNED_ANSWER_LIFETIME_MS - 2_000;
    let hits = p.counters.answerCacheHits;
    p.cached(withDo);
    p.cached(withoutDo);
    expect(p.counters.answerCacheHits).toBe(hits + 2);
    nowMs += 2_000;
    hits = p.counters.answerCacheHits;
    const stores = p.counters.answerCacheStores;
    expect(p.cached(withDo).bytes).toBe(p.plain(withDo).bytes);
    expect(p.counters.answerCacheHits).toBe(hits);
    // Stored again at once (seen before), then answered from the cache.
    expect(p.counters.answerCacheStores).toBe(stores + 1);
    p.cached(withoutDo);
    p.cached(withDo);
    expect(p.counters.answerCacheHits).toBe(hits + 2);
  });
});

describe('answer cache: invalidation', () => {
  const A = (name: string) => buildQuery({ name, qtype: 1, edns: { payload: 1232 } });

  it('follows a changed zone, a new child zone and a removed one', () => {
    const store = storeOf();
    const p = pair(store);
    const www = A('www.example.com');
    const inSub = A('host.sub.example.com');
    const net = A('www.example.net');
    for (const q of [www, inSub, net]) expectSame(p, q, 'before');
    const hits = p.counters.answerCacheHits;
    expect(hits).toBe(3);
    const stores = p.counters.answerCacheStores;

    // One zone changes: its answers go, the other zone's stay.
    const changed = CONFORMANCE_ZONES.map((z) =>
      z.domain === 'example.com' ? { ...z, text: `${z.text}\nwww A 203.0.113.99\n` } : z,
    );
    store.upsert(zoneDataFromText(changed[0]!));
    const after = p.cached(www);
    expect(after.bytes).toBe(p.plain(www).bytes);
    expect(after.bytes).toContain('cb007163'); // 203.0.113.99
    expect(p.counters.answerCacheHits).toBe(hits);
    expect(p.counters.answerCacheStores).toBe(stores + 1); // seen before: stored again at once
    p.cached(net);
    expect(p.counters.answerCacheHits).toBe(hits + 1);

    // A zone removed: names below it now belong to the parent (a referral, not its data).
    store.remove(2);
    expectSame(p, inSub, 'sub.example.com removed');
    expect(p.plain(inSub).out.zoneApex).toBe('example.com');

    // A new zone under a served one takes its names over.
    store.upsert(
      zoneDataFromText({
        id: 9,
        domain: 'www.example.net',
        text: '$ORIGIN www.example.net.\n@ SOA ns hm 1 2 3 4 5\n@ NS ns\n@ A 198.51.100.9\n',
      }),
    );
    const child = p.cached(net);
    expect(child.bytes).toBe(p.plain(net).bytes);
    expect(child.out.zoneApex).toBe('www.example.net');
  });

  it('stores a question on its second miss only: a flood of unique names stores nothing', () => {
    const p = pair(storeOf());
    for (let i = 0; i < 2000; i++) p.cached(A(`r${i}x.example.com`));
    expect(p.counters.answerCacheStores).toBe(0);
    expect(p.counters.answerCacheMisses).toBe(2000);
    // The last of them (its doorkeeper entry cannot have been taken by a later one) is kept now.
    p.cached(A('r1999x.example.com'));
    expect(p.counters.answerCacheStores).toBe(1);
  });

  it('is used while it pays: a long flood of unique names is sampled, repeated names bring it back', () => {
    const p = pair(storeOf());
    const window = WINDOW_LOOKUPS;
    // Three windows of unique names: the first is looked up whole, then one query in SAMPLE_EVERY.
    for (let i = 0; i < 3 * window; i++) p.cached(A(`u${i}.example.com`));
    const c = p.counters;
    expect(c.answerCacheHits).toBe(0);
    expect(c.answerCacheMisses + c.answerCacheSkips).toBe(3 * window);
    expect(c.answerCacheMisses).toBe(window + (2 * window) / SAMPLE_EVERY);
    // Skipped queries are answered exactly as without a cache, and not stored.
    const stores = c.answerCacheStores;
    for (let i = 0; i < 200; i++) expectSame(p, A(`www.example.com`), 'while sampling');
    expect(c.answerCacheStores - stores).toBeLessThanOrEqual(2);
    // Names that repeat: the sampled lookups hit, and after a window of them the cache is whole again.
    const names = Array.from({ length: 20 }, (_, i) => A(`h${i}.example.com`));
    let asked = 0;
    let looked = 0;
    while (looked < 2 * SAMPLE_EVERY && asked < window * SAMPLE_EVERY) {
      const skips = c.answerCacheSkips;
      p.cached(names[asked++ % names.length]!);
      looked = c.answerCacheSkips === skips ? looked + 1 : 0;
    }
    expect(looked).toBe(2 * SAMPLE_EVERY);
    // Every query is looked up again: a name's second miss stores it, the third ask hits.
    for (const q of names)
      for (const round of [1, 2]) expect(p.cached(q).out.kind, `${round}`).toBe('nxdomain');
    const hits = c.answerCacheHits;
    const skips = c.answerCacheSkips;
    for (const q of names) expect(p.cached(q).out.kind).toBe('nxdomain');
    expect(c.answerCacheHits - hits).toBe(names.length);
    expect(c.answerCacheSkips).toBe(skips);
  });

  it('keeps answering what the ring still holds across its laps (the miss filters never hide a record)', () => {
    // 64 KiB: a ring of about 56 KiB; 1,500 records of over 120 bytes go round it three times.
    // After each store the ten names stored before it are asked again: they are still in the ring
    // (the last lap or this one), so they hit, but for the rare one whose index slot a later record
    // took over. A filter that forgot the last lap would miss all those stored before the wrap.
    const p = pair(storeOf(), 64 * 1024);
    const name = (i: number) => A(`lap${i}.example.com`);
    let worst = 0;
    for (let i = 0; i < 1500; i++) {
      p.cached(name(i));
      p.cached(name(i));
      if (i < 10) continue;
      let missed = 0;
      for (let k = 1; k <= 10; k++) {
        const hits = p.counters.answerCacheHits;
        expect(p.cached(name(i - k)).out.kind).toBe('nxdomain');
        if (p.counters.answerCacheHits === hits) missed++;
      }
      worst = Math.max(worst, missed);
    }
    expect(p.counters.answerCacheStores).toBeGreaterThanOrEqual(1500);
    expect(worst).toBeLessThanOrEqual(3);
    // And the first names are long overwritten: asking them misses.
    const misses = p.counters.answerCacheMisses;
    p.cached(name(0));
    expect(p.counters.answerCacheMisses).toBe(misses + 1);
  });

  it('keeps an answer to a query with ECS under that query (its echo is made from it)', () => {
    const p = pair(storeOf());
    const ecs = (subnet: number) =>
      buildQuery({
        name: 'www.example.com',
        qtype: 1,
        edns: { payload: 1232, options: [[8, Uint8Array.from([0, 1, 24, 0, 192, 0, subnet])]] },
      });
    expectSame(p, ecs(2), 'ECS 192.0.2.0/24');
    expectSame(p, ecs(3), 'ECS 192.0.3.0/24');
    expect(p.cached(ecs(2)).out.cacheable).toBe(true);
    expect(p.counters.answerCacheHits).toBe(3);
  });

  it('does not keep cookie or transfer answers', () => {
    const store = storeOf();
    const p = pair(store);
    const cookie = buildQuery({
      name: 'www.example.com',
      qtype: 1,
      edns: { payload: 1232, options: [[10, Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8])]] },
    });
    const ixfr = buildQuery({ name: 'example.com', qtype: 251 });
    for (const q of [cookie, ixfr]) {
      expectSame(p, q, 'uncacheable');
      expect(p.cached(q).out.cacheable).toBe(false);
    }
    expect(p.counters.answerCacheStores).toBe(0);
    expect(p.counters.answerCacheHits).toBe(0);
  });
});
