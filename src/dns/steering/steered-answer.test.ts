import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { zoneFromText } from '../../testing/dns-zone-fixture.ts';
import { loadBalancer, member, pool } from '../../testing/steering-fixture.ts';
import { createClientSubnet, parseClientSubnet } from '../wire/message/client-subnet.ts';
import { createMessageHandler, createOutcome } from '../server/handle-message.ts';
import type { ClientInfo } from '../server/handle-message.ts';
import { ZoneStore } from '../zone/zone-store.ts';
import { MemberHealthTable } from './member-health-table.ts';
import { clientSubnetAddressText } from './steered-answer.ts';

const ZONE = `
$ORIGIN example.com.
$TTL 3600
@ SOA ns1 hostmaster 1 7200 3600 1209600 60
@ NS ns1
ns1 A 192.0.2.53
`;

function store(): ZoneStore {
  const s = new ZoneStore();
  s.replaceAll([
    {
      ...zoneFromText(1, 'example.com', ZONE),
      steering: {
        pools: [pool(1, [member(1, '198.51.100.1'), member(2, '198.51.100.2'), member(3, '2001:db8::3')])],
        loadBalancers: [loadBalancer({ hostname: 'lb.example.com', defaultPools: [1], ttl: 120 })],
      },
    },
  ]);
  return s;
}

const dataOf = (r: object): unknown => (r as { data?: unknown }).data;

const CLIENT: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };

function ask(handle: ReturnType<typeof createMessageHandler>, type: 'A' | 'AAAA') {
  const out = createOutcome();
  const res = handle(
    dnsPacket.encode({ type: 'query', id: 1, questions: [{ name: 'lb.example.com', type, class: 'IN' }] }),
    CLIENT,
    out,
  );
  return { out, packet: dnsPacket.decode(res!) };
}

describe('steered answers through createMessageHandler', () => {
  it('steers without options: every member unknown, i.e. healthy', () => {
    const { out, packet } = ask(createMessageHandler(store()), 'A');
    expect(out.kind).toBe('positive');
    expect(packet.answers).toHaveLength(1);
    expect(['198.51.100.1', '198.51.100.2']).toContain(dataOf(packet.answers![0]!));
  });

  it('serve_last answers every enabled member of the family in one RRset', () => {
    const health = new MemberHealthTable();
    for (const id of [1, 2, 3]) health.set(id, 'unhealthy');
    const handle = createMessageHandler(store(), { health });
    const a = ask(handle, 'A').packet;
    expect(a.answers!.map(dataOf)).toEqual(['198.51.100.1', '198.51.100.2']);
    expect((a.answers![0] as { ttl?: number }).ttl).toBe(120);
    expect(ask(handle, 'AAAA').packet.answers!.map(dataOf)).toEqual(['2001:db8::3']);
  });

  it('NODATA SOA keeps the zone negative TTL when below the LB ttl', () => {
    const s = new ZoneStore();
    s.replaceAll([
      {
        ...zoneFromText(1, 'example.com', ZONE),
        steering: {
          pools: [pool(1, [member(1, '198.51.100.1')])],
          loadBalancers: [loadBalancer({ hostname: 'lb.example.com', defaultPools: [1], ttl: 120 })],
        },
      },
    ]);
    const { out, packet } = ask(createMessageHandler(s), 'AAAA');
    expect(out.kind).toBe('nodata');
    expect((packet.authorities![0] as { ttl?: number }).ttl).toBe(60);
  });
});

describe('clientSubnetAddressText', () => {
  it('prints the ECS address with the unsent bytes as zero', () => {
    const ecs = createClientSubnet();
    expect(parseClientSubnet(Uint8Array.from([0, 1, 20, 0, 10, 1, 0xff]), 0, 7, ecs)).toBe(true);
    expect(clientSubnetAddressText(ecs)).toBe('10.1.240.0');
    expect(parseClientSubnet(Uint8Array.from([0, 2, 48, 0, 0x20, 0x01, 0x0d, 0xb8, 0, 1]), 0, 10, ecs)).toBe(
      true,
    );
    expect(clientSubnetAddressText(ecs)).toBe('2001:db8:1::');
  });
});
