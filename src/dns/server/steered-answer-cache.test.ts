/**
 * Steered answers in the UDP answer cache (answer-cache.ts, lastDnsDecisionKeepable): a cached
 * steered answer is byte for byte the uncached one for the same query, across policies, ECS
 * subnets, families and query variations; decisions that draw at random or read the resolver's
 * address are not kept; a health change and a pool change are answered at once, never from a
 * stale record; hits are counted per load balancer as uncached answers are.
 */
import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../../test/conformance/query-wire-builder.ts';
import type { IpLocation, IpLocator } from '../../geo/ip-locator.ts';
import { regionOfCountry } from '../../geo/geo-data.ts';
import { zoneFromText } from '../../testing/dns-zone-fixture.ts';
import { loadBalancer, member, pool } from '../../testing/steering-fixture.ts';
import { LbAnswerCounts } from '../steering/lb-answer-counts.ts';
import { MemberHealthTable } from '../steering/member-health-table.ts';
import type { SteeringPool, ZoneSteering } from '../steering/steering-config.ts';
import { ZoneStore } from '../zone/zone-store.ts';
import { createAnswerCacheCounters } from './answer-cache.ts';
import { createMessageHandler, createMessageHandlerWithContext, createOutcome } from './handle-message.ts';
import type { ClientInfo, MessageHandlerOptions, MessageOutcome } from './handle-message.ts';

const UDP: ClientInfo = { transport: 'udp', address: '198.51.100.7', port: 5353, family: 4 };
const SLOT = 4096;

const ZONE = `
$ORIGIN example.com.
$TTL 3600
@ SOA ns1 hostmaster 1 7200 3600 1209600 300
@ NS ns1
ns1 A 192.0.2.53
`;

/** First octet of the address → country (a locator of the test's own). */
const COUNTRY_OF: Readonly<Record<number, string>> = { 10: 'US', 20: 'DE', 30: 'JP', 40: 'BR' };
const LOCATOR: IpLocator = {
  lookup(ip: string): IpLocation | null {
    const country = COUNTRY_OF[Number(ip.split('.')[0])];
    return country === undefined ? null : { country, latitude: 10, longitude: 20, precision: 'country' };
  },
};

function pools(): SteeringPool[] {
  return [
    pool(1, [member(11, '203.0.113.1'), member(12, '2001:db8::1')]),
    pool(2, [member(21, '203.0.113.2'), member(22, '203.0.113.22', { priority: 1 })], {
      algorithm: 'failover',
    }),
    pool(3, [member(31, '203.0.113.3')], { primaryLocation: { code: 'X', latitude: 50, longitude: 8 } }),
    // Two members by weight: a draw per query.
    pool(4, [member(41, '203.0.113.4'), member(42, '203.0.113.44')]),
    // The same with session affinity: keyed by the client subnet, no draw.
    pool(5, [member(51, '203.0.113.5'), member(52, '203.0.113.55')], { sessionAffinity: 'client_ip' }),
    pool(6, [member(61, '203.0.113.6')], { primaryLocation: { code: 'Y', latitude: -20, longitude: -45 } }),
  ];
}

function steering(p: SteeringPool[] = pools()): ZoneSteering {
  const resolver = { locationStrategy: 'resolver_ip' as const };
  return {
    pools: p,
    loadBalancers: [
      loadBalancer({ id: 1, hostname: 'off.example.com', defaultPools: [1, 2] }),
      loadBalancer({
        id: 2,
        hostname: 'geo.example.com',
        policy: 'geo',
        ...resolver,
        countryPools: { US: [2], DE: [3] },
        regionPools: { [regionOfCountry('JP') ?? 'none']: [6] },
        defaultPools: [1],
      }),
      loadBalancer({
        id: 3,
        hostname: 'near.example.com',
        policy: 'proximity',
        ...resolver,
        defaultPools: [3, 6],
      }),
      loadBalancer({ id: 4, hostname: 'weighted.example.com', defaultPools: [4] }),
      loadBalancer({
        id: 5,
        hostname: 'affinity.example.com',
        policy: 'geo',
        ...resolver,
        defaultPools: [5],
      }),
      loadBalancer({ id: 6, hostname: 'random.example.com', policy: 'random', defaultPools: [1, 2] }),
      loadBalancer({ id: 7, hostname: 'one.example.com', policy: 'random', defaultPools: [3] }),
      loadBalancer({ id: 8, hostname: 'down.example.com', defaultPools: [3], onAllUnhealthy: 'servfail' }),
      loadBalancer({ id: 9, hostname: 'last.example.com', defaultPools: [2] }),
    ],
  };
}

function storeWith(s: ZoneSteering): ZoneStore {
  const store = new ZoneStore();
  store.replaceAll([{ ...zoneFromText(1, 'example.com', ZONE), steering: s }]);
  return store;
}

/** A plain handler and a cached one over the same store, health and (fixed) random source. */
function pair(store: ZoneStore, health: MemberHealthTable) {
  const plainCounts = new LbAnswerCounts();
  const cachedCounts = new LbAnswerCounts();
  const base: MessageHandlerOptions = { health, locator: LOCATOR, pop: 'FRA', random: () => 0.7 };
  const plain = createMessageHandler(store, { ...base, lbAnswers: plainCounts });
  const counters = createAnswerCacheCounters();
  const cached = createMessageHandlerWithContext(store, {
    ...base,
    lbAnswers: cachedCounts,
    answerCache: { bytes: 1 << 20, counters },
  });
  const out = createOutcome();
  const src = new Uint8Array(3 * SLOT);
  const dst = new Uint8Array(3 * SLOT);
  return {
    counters,
    plainCounts,
    cachedCounts,
    plain: (q: Uint8Array): { bytes: string; out: MessageOutcome } => {
      const res = plain(q, UDP, out);
      return { bytes: res === null ? 'none' : Buffer.from(res).toString('hex'), out: { ...out } };
    },
    cached: (q: Uint8Array): { bytes: string; out: MessageOutcome } => {
      src.set(q, SLOT);
      const n = cached.handleSlot(src, SLOT, q.length, UDP, out, dst, SLOT, SLOT);
      return {
        bytes: n < 0 ? 'none' : Buffer.from(dst.subarray(SLOT, SLOT + n)).toString('hex'),
        out: { ...out },
      };
    },
  };
}

type Pair = ReturnType<typeof pair>;

function ecsOption(address: readonly number[], prefix: number): [number, Uint8Array] {
  const bytes = Math.ceil(prefix / 8);
  return [8, Uint8Array.from([0, 1, prefix, 0, ...address.slice(0, bytes)])];
}

function query(name: string, qtype: number, ecs: readonly number[] | null, variant = 0): Buffer {
  return buildQuery({
    id: 0x100 + variant,
    name: variant % 2 === 1 ? name.toUpperCase() : name,
    qtype,
    rd: variant % 3 === 1,
    edns: {
      payload: variant % 4 === 3 ? 512 : 1232,
      do: variant % 5 === 2,
      ...(ecs === null ? {} : { options: [ecsOption(ecs, variant % 2 === 0 ? 24 : 20)] }),
    },
  });
}

/** Asks three times through the cache (stored on the second miss, a hit on the third) and once plainly. */
function expectSame(p: Pair, q: Uint8Array, label: string): MessageOutcome {
  const want = p.plain(q);
  for (const round of [1, 2, 3]) {
    const got = p.cached(q);
    expect(got.bytes, `${label} (round ${round})`).toBe(want.bytes);
    expect(got.out, `${label} outcome (round ${round})`).toEqual(want.out);
  }
  return want.out;
}

const NAMES = ['off', 'geo', 'near', 'weighted', 'affinity', 'random', 'one', 'down', 'last'];
const SUBNETS: (readonly number[] | null)[] = [
  null,
  [10, 1, 2, 0],
  [20, 7, 0, 0],
  [30, 3, 3, 0],
  [40, 9, 9, 0],
  [99, 1, 1, 0],
];

describe('answer cache: steered answers', () => {
  it('answers byte for byte as the uncached path, and keeps only what the decision allows', () => {
    const health = new MemberHealthTable();
    health.set(31, 'unhealthy'); // down: all unhealthy → SERVFAIL; near and one: the other pool
    health.set(21, 'unhealthy'); // last: the failover pool's backup
    const p = pair(storeWith(steering()), health);
    const kept = new Set<string>();
    const notKept = new Set<string>();
    for (const name of NAMES)
      for (const qtype of [1, 28])
        for (const subnet of SUBNETS)
          for (let variant = 0; variant < 6; variant++) {
            const out = expectSame(
              p,
              query(`${name}.example.com`, qtype, subnet, variant),
              `${name} ${qtype} ${String(subnet)} ${variant}`,
            );
            (out.cacheable ? kept : notKept).add(`${name}/${qtype}`);
          }
    // Drawn at random (two members by weight, two usable pools): never kept.
    expect(notKept).toContain('weighted/1');
    expect(notKept).toContain('random/1');
    expect(kept).not.toContain('weighted/1');
    expect(kept).not.toContain('random/1');
    // AAAA: one usable pool with one member of the family, no draw.
    expect(kept).toContain('random/28');
    expect(kept).not.toContain('down/1'); // SERVFAIL
    for (const name of ['off', 'geo', 'near', 'affinity', 'one', 'last']) expect(kept).toContain(`${name}/1`);
    expect(p.counters.answerCacheHits).toBeGreaterThan(500);
    // Each hit counted as its answer would have been.
    expect(p.cachedCounts.snapshot()).toEqual(
      Object.fromEntries(Object.entries(p.plainCounts.snapshot()).map(([k, v]) => [k, v * 3])),
    );
  });

  it('does not keep a decision that read the resolver address (no ECS)', () => {
    const p = pair(storeWith(steering()), new MemberHealthTable());
    const q = query('affinity.example.com', 1, null);
    expectSame(p, q, 'affinity without ECS');
    expect(p.cached(q).out.cacheable).toBe(false);
    // The same without a client read (ordered pools): kept.
    const off = query('off.example.com', 1, null);
    expectSame(p, off, 'off without ECS');
    expect(p.cached(off).out.cacheable).toBe(true);
  });

  it('follows a health change at once', () => {
    const health = new MemberHealthTable();
    const p = pair(storeWith(steering()), health);
    const geo = query('geo.example.com', 1, [10, 1, 2, 0]);
    const off = query('off.example.com', 1, null);
    expectSame(p, geo, 'geo before');
    expectSame(p, off, 'off before');
    expect(p.cached(geo).bytes).toContain('cb007102'); // US: pool 2's primary, 203.0.113.2
    const hits = p.counters.answerCacheHits;
    health.set(21, 'unhealthy');
    const after = p.cached(geo);
    expect(after.bytes).toBe(p.plain(geo).bytes);
    expect(after.bytes).toContain('cb007116'); // the backup, 203.0.113.22
    health.set(11, 'unhealthy');
    expect(p.cached(off).bytes).toBe(p.plain(off).bytes);
    expect(p.cached(off).bytes).toContain('cb007116'); // pool 1 down: pool 2's backup
    expect(p.counters.answerCacheHits).toBe(hits + 1);
    // Back: the first answer again, not a stale one.
    health.set(21, 'healthy');
    health.set(11, 'healthy');
    expect(p.cached(geo).bytes).toBe(p.plain(geo).bytes);
    expect(p.cached(geo).bytes).toContain('cb007102');
  });

  it('follows a pool change at once (a new snapshot of the zone)', () => {
    const health = new MemberHealthTable();
    const store = storeWith(steering());
    const p = pair(store, health);
    const geo = query('geo.example.com', 1, [20, 7, 0, 0]);
    expectSame(p, geo, 'before');
    expect(p.cached(geo).bytes).toContain('cb007103'); // DE: pool 3, 203.0.113.3
    const changed = pools().map((x) => (x.id === 3 ? { ...x, members: [member(31, '203.0.113.99')] } : x));
    store.upsert({ ...zoneFromText(1, 'example.com', ZONE), steering: steering(changed) });
    const after = p.cached(geo);
    expect(after.bytes).toBe(p.plain(geo).bytes);
    expect(after.bytes).toContain('cb007163');
    // A country moved to another pool.
    const s = steering();
    const moved = {
      ...s,
      loadBalancers: s.loadBalancers.map((lb) => (lb.id === 2 ? { ...lb, countryPools: { DE: [6] } } : lb)),
    };
    store.upsert({ ...zoneFromText(1, 'example.com', ZONE), steering: moved });
    expect(p.cached(geo).bytes).toBe(p.plain(geo).bytes);
    expect(p.cached(geo).bytes).toContain('cb007106');
  });
});
