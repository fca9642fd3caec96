import dnsPacket from 'dns-packet';
import type { Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GEOIP_DB, openIpLocator } from '../../geo/ip-locator.ts';
import type { IpLocator } from '../../geo/ip-locator.ts';
import { queryUdp } from '../../testing/dns-client.ts';
import { zoneFromText } from '../../testing/dns-zone-fixture.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { loadBalancer, member, pool, poolMap } from '../../testing/steering-fixture.ts';
import { startDnsServer } from '../server/dns-server.ts';
import type { DnsServer } from '../server/dns-server.ts';
import { createMessageHandler } from '../server/handle-message.ts';
import { ZoneStore } from '../zone/zone-store.ts';
import { resolveClientContext } from './client-location.ts';
import { MemberHealthTable } from './member-health-table.ts';
import type { ZoneSteering } from './steering-config.ts';
import { steer } from './steering-engine.ts';

/**
 * End to end over real UDP: a zone carrying steering configuration, queries with EDNS Client
 * Subnet from three countries (shipped GeoIP database), health changes through MemberHealthTable.
 */

const ZONE = `
$ORIGIN example.com.
$TTL 3600
@ SOA ns1 hostmaster 1 7200 3600 1209600 300
@ NS ns1
ns1 A 192.0.2.53
www TXT "ordinary record at a load balancer name"
off A 192.0.2.99
`;

const POOLS = [
  pool(1, [member(11, '198.51.100.1')], { name: 'us' }),
  pool(2, [member(21, '198.51.100.2')], { name: 'de' }),
  pool(3, [member(31, '198.51.100.3')], { name: 'weu' }),
  pool(4, [member(41, '198.51.100.4')], { name: 'default' }),
  pool(5, [member(51, '198.51.100.5'), member(52, '2001:db8::5')], { name: 'fra' }),
  pool(
    6,
    [1, 2, 3, 4, 5].map((i) => member(60 + i, `203.0.113.${i}`, { weight: i * 10 })),
    { name: 'sticky', sessionAffinity: 'client_ip' },
  ),
];

const STEERING: ZoneSteering = {
  pools: POOLS,
  loadBalancers: [
    loadBalancer({
      id: 1,
      hostname: 'www.example.com',
      policy: 'geo',
      locationStrategy: 'resolver_ip',
      countryPools: { US: [1], DE: [2] },
      regionPools: { WEU: [3] },
      defaultPools: [4],
      onAllUnhealthy: 'servfail',
    }),
    loadBalancer({
      id: 2,
      hostname: 'pop.example.com',
      policy: 'geo',
      locationPools: { FRA: [5] },
      defaultPools: [4],
    }),
    loadBalancer({ id: 3, hostname: 'off.example.com', enabled: false, defaultPools: [4] }),
    loadBalancer({
      id: 4,
      hostname: 'sticky.example.com',
      locationStrategy: 'resolver_ip',
      defaultPools: [6],
    }),
    loadBalancer({ id: 5, hostname: 'deep.lb.example.com', defaultPools: [4] }),
  ],
};

let server: DnsServer;
let locator: IpLocator;
const health = new MemberHealthTable();

beforeAll(async () => {
  locator = await openIpLocator(DEFAULT_GEOIP_DB);
  const store = new ZoneStore();
  store.replaceAll([{ ...zoneFromText(1, 'example.com', ZONE), steering: STEERING }]);
  const handler = createMessageHandler(store, {
    health,
    pop: 'FRA',
    locator,
    random: createSeededRandom(1).next,
  });
  server = await startDnsServer({ host: '127.0.0.1', port: 0, handler, rrl: null });
});
afterAll(() => server.close());

type QType = 'A' | 'AAAA' | 'TXT';

async function ask(name: string, type: QType, ecs?: string): Promise<Packet> {
  const options = ecs
    ? [{ code: 8 as const, family: 1, sourcePrefixLength: 24, scopePrefixLength: 0, ip: ecs }]
    : [];
  const wire = dnsPacket.encode({
    type: 'query',
    id: 4242,
    questions: [{ name, type, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: 1232,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: 0,
        flag_do: false,
        options,
      },
    ],
  });
  const res = await queryUdp(wire, { host: '127.0.0.1', port: server.udpPort });
  expect(res.decoded).not.toBeNull();
  return res.decoded!;
}

const addresses = (p: Packet): string[] =>
  (p.answers ?? []).map((a) => String((a as { data: unknown }).data));
const rcodeOf = (p: Packet): string | undefined => (p as { rcode?: string }).rcode;

function ecsScopeOf(p: Packet): number | null {
  const opt = (p.additionals ?? []).find((a) => a.type === 'OPT') as
    { options?: { code: number; scopePrefixLength?: number }[] } | undefined;
  return opt?.options?.find((o) => o.code === 8)?.scopePrefixLength ?? null;
}

describe('steered answers over UDP', () => {
  it.each([
    ['8.8.8.0', 'US → country pool', '198.51.100.1'],
    ['194.25.134.0', 'DE → country pool', '198.51.100.2'],
    ['193.0.6.0', 'NL → region WEU pool', '198.51.100.3'],
    ['1.0.16.0', 'elsewhere → default pool', '198.51.100.4'],
  ])('ECS %s (%s)', async (subnet, _what, address) => {
    const p = await ask('www.example.com', 'A', subnet);
    expect(rcodeOf(p)).toBe('NOERROR');
    expect(p.flags! & dnsPacket.AUTHORITATIVE_ANSWER).toBeTruthy();
    expect(addresses(p)).toEqual([address]);
    expect((p.answers![0] as { ttl?: number }).ttl).toBe(30);
    expect(ecsScopeOf(p)).toBe(24);
  });

  it('answers other types at the hostname from ordinary records', async () => {
    const p = await ask('www.example.com', 'TXT', '8.8.8.0');
    expect(p.answers?.[0]?.type).toBe('TXT');
    expect(ecsScopeOf(p)).toBe(0);
  });

  it('answers AAAA for IPv4-only pools with NODATA, SOA TTL capped at the LB ttl', async () => {
    const p = await ask('www.example.com', 'AAAA', '8.8.8.0');
    expect(rcodeOf(p)).toBe('NOERROR');
    expect(p.answers).toEqual([]);
    expect(p.authorities?.[0]?.type).toBe('SOA');
    expect((p.authorities![0] as { ttl?: number }).ttl).toBe(30);
  });

  it('steers by the answering PoP with scope 0', async () => {
    const a = await ask('pop.example.com', 'A', '8.8.8.0');
    expect(addresses(a)).toEqual(['198.51.100.5']);
    expect(ecsScopeOf(a)).toBe(0);
    expect(addresses(await ask('pop.example.com', 'AAAA'))).toEqual(['2001:db8::5']);
  });

  it('serves a disabled load balancer hostname from ordinary records', async () => {
    expect(addresses(await ask('off.example.com', 'A', '8.8.8.0'))).toEqual(['192.0.2.99']);
  });

  it('makes a hostname without records exist (NODATA, not NXDOMAIN) and its parents too', async () => {
    expect(addresses(await ask('deep.lb.example.com', 'A'))).toEqual(['198.51.100.4']);
    const txt = await ask('deep.lb.example.com', 'TXT');
    expect(rcodeOf(txt)).toBe('NOERROR');
    expect(rcodeOf(await ask('lb.example.com', 'A'))).toBe('NOERROR');
    expect(rcodeOf(await ask('nothere.example.com', 'A'))).toBe('NXDOMAIN');
  });

  it('follows health: failover to region, SERVFAIL when everything is down', async () => {
    try {
      health.set(21, 'unhealthy');
      expect(addresses(await ask('www.example.com', 'A', '194.25.134.0'))).toEqual(['198.51.100.3']);
      for (const id of [11, 31, 41]) health.set(id, 'unhealthy');
      expect(rcodeOf(await ask('www.example.com', 'A', '194.25.134.0'))).toBe('SERVFAIL');
    } finally {
      health.clear();
    }
    expect(addresses(await ask('www.example.com', 'A', '194.25.134.0'))).toEqual(['198.51.100.2']);
  });
});

describe('preview and DNS agree', () => {
  it('answers exactly what steer() decides for the same context', async () => {
    const lb = STEERING.loadBalancers[3]!;
    const byId = poolMap(POOLS);
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const subnet = `${20 + i}.${(i * 37) % 256}.${(i * 11) % 256}.0`;
      const ctx = resolveClientContext({
        strategy: lb.locationStrategy,
        pop: 'FRA',
        clientIp: '127.0.0.1',
        ecs: { address: subnet, sourcePrefix: 24 },
        locator,
      });
      const d = steer(lb, byId, ctx, 4, health, Math.random);
      const p = await ask('sticky.example.com', 'A', subnet);
      expect(addresses(p)).toEqual(d.members.map((m) => m.address));
      expect(ecsScopeOf(p)).toBe(d.ecsScope);
      seen.add(d.members[0]!.address);
    }
    expect(seen.size).toBeGreaterThan(2);
  });
});
