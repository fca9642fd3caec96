/**
 * Name compression in large answers (RFC 1035 §4.1.4): past the names a message usually holds,
 * the writer indexes remembered names in a Map instead of scanning them; pointers must still
 * resolve to the right names, a name must be written in full only once, and a rolled-back RRset
 * (truncation) must not leave pointers to bytes that are gone.
 */
import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { createMessageHandler, createOutcome } from '../../server/handle-message.ts';
import type { ClientInfo } from '../../server/handle-message.ts';
import { zoneFromText } from '../../../testing/dns-zone-fixture.ts';
import { buildQuery } from '../../../../test/conformance/query-wire-builder.ts';
import { ZoneStore } from '../../zone/zone-store.ts';

const TARGETS = 60;
const ZONE = [
  '$ORIGIN example.com.',
  '@ SOA ns1 hostmaster 1 7200 3600 1209600 300',
  '@ NS ns1',
  'ns1 A 192.0.2.53',
  ...Array.from({ length: TARGETS }, (_, i) => `many MX ${i} mx.host${i}.example.com.`),
  ...Array.from({ length: TARGETS }, (_, i) => `mx.host${i} A 192.0.2.${i + 1}`),
].join('\n');

function ask(transport: 'udp' | 'tcp', payload: number) {
  const store = new ZoneStore();
  store.replaceAll([zoneFromText(1, 'example.com', ZONE)]);
  const client: ClientInfo = { transport, address: '192.0.2.9', port: 5353, family: 4 };
  const wire = createMessageHandler(store)(
    buildQuery({ name: 'many.example.com', qtype: 15, edns: { payload } }),
    client,
    createOutcome(),
  );
  return { wire: wire!, packet: dnsPacket.decode(wire!) };
}

describe('response writer: compression in large answers', () => {
  it('points every repeated name at its first copy when the message holds many names', () => {
    const { wire, packet } = ask('tcp', 1232);
    const exchanges = (packet.answers ?? []).map(
      (a) => (a as unknown as { data: { exchange: string } }).data.exchange,
    );
    expect(exchanges.sort()).toEqual(
      Array.from({ length: TARGETS }, (_, i) => `mx.host${i}.example.com`).sort(),
    );
    const glue = (packet.additionals ?? []).filter((a) => a.type === 'A').map((a) => a.name);
    expect(glue.sort()).toEqual(exchanges.sort());
    // Each target appears in full once (in the MX RDATA); its glue owner is a 2-byte pointer.
    const text = wire.toString('latin1');
    for (let i = 0; i < TARGETS; i++) {
      const label = `host${i}`;
      expect(text.split(String.fromCharCode(label.length) + label).length - 1, label).toBe(1);
    }
  });

  it('keeps pointers valid when a truncated UDP answer drops records it had remembered', () => {
    const { wire, packet } = ask('udp', 512);
    expect(wire.length).toBeLessThanOrEqual(512);
    expect(packet.flag_tc).toBe(true);
    const records = [...(packet.answers ?? []), ...(packet.authorities ?? []), ...(packet.additionals ?? [])];
    for (const r of records.filter((a) => a.type !== 'OPT')) expect(r.name).toMatch(/example\.com$/);
  });
});

/**
 * The SOA of negative answers is copied as it was written after a question name of the same length
 * (addSoaAsBefore): every copy must equal what compressing it afresh writes — question names that
 * share a suffix with MNAME or RNAME (ns1.…, x.ns1.…, hostmaster.…, any case), of every length,
 * NXDOMAIN and NODATA, with and without EDNS, signed-zone style options aside.
 */
describe('response writer: the negative answer SOA written as before', () => {
  const zones = [
    [
      'example.com',
      '@ SOA ns1 hostmaster 1 7200 3600 1209600 300\n@ NS ns1\nns1 A 192.0.2.53\nwww A 192.0.2.1\nsub.deep TXT "x"',
    ],
    [
      'example.org',
      '@ SOA ns.provider.net. dns.example.org. 1 7200 3600 1209600 300\n@ NS ns.provider.net.\nwww A 192.0.2.2',
    ],
    [
      'a.b.example.net',
      '@ SOA a.b.example.net. b.example.net. 1 7200 3600 1209600 300\n@ NS ns.a.b.example.net.\nns A 192.0.2.3',
    ],
  ] as const;
  const store = new ZoneStore();
  store.replaceAll(
    zones.map(([domain, text], i) => zoneFromText(i + 1, domain, `$ORIGIN ${domain}.\n${text}`)),
  );
  const client: ClientInfo = { transport: 'udp', address: '192.0.2.9', port: 5353, family: 4 };
  const names = (apex: string): string[] => [
    apex,
    `www.${apex}`,
    `ns1.${apex}`,
    `NS1.${apex.toUpperCase()}`,
    `x.ns1.${apex}`,
    `hostmaster.${apex}`,
    `x.hostmaster.${apex}`,
    `dns.${apex}`,
    `ns.${apex}`,
    `x.ns.${apex}`,
    `b.${apex}`,
    `a.b.${apex}`,
    `deep.${apex}`,
    `x.sub.deep.${apex}`,
    ...Array.from(
      { length: 40 },
      (_, i) => `${'q'.repeat(1 + (i % 9))}${i}.${'l'.repeat((i % 5) + 1)}.${apex}`,
    ),
  ];

  it('writes byte for byte what a fresh writer writes, for every question name', () => {
    const shared = createMessageHandler(store);
    let compared = 0;
    for (const [apex] of zones) {
      // Twice round: the second pass is answered from what the first kept.
      for (let pass = 0; pass < 2; pass++) {
        for (const name of names(apex)) {
          for (const qtype of [1, 16, 28, 99]) {
            for (const edns of [undefined, { payload: 1232 }]) {
              const q = buildQuery({ name, qtype, ...(edns ? { edns } : {}) });
              const fresh = createMessageHandler(store)(q, client, createOutcome());
              const out = createOutcome();
              const got = shared(q, client, out);
              expect(Buffer.from(got!).toString('hex'), `${name} ${qtype}`).toBe(
                Buffer.from(fresh!).toString('hex'),
              );
              if (out.kind === 'nxdomain' || out.kind === 'nodata') compared++;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
