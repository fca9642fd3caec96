/**
 * A zone served packed (src/dns/zone/packed-node-table.ts: names indexed over the packed records,
 * nodes made when asked) answers byte for byte what the same zone built whole answers: every query
 * of the differential and malformed corpora, each in random variations (ID, 0x20 letter case, RD,
 * EDNS payload and DO), with the node cache at its size and shrunk to a few nodes (every lookup
 * then makes its node anew).
 */
import dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';
import { buildQuery } from '../../../test/conformance/query-wire-builder.ts';
import { generateDnssecKey } from '../dnssec/dnssec-key.ts';
import type { ZoneDnssec } from '../dnssec/dnssec-config.ts';
import { NSEC3PARAM_RDATA } from '../dnssec/nsec3-chain.ts';
import { signingFor } from '../dnssec/signing-registry.ts';
import { keyOfText } from '../wire/wire-name.ts';
import { CONFORMANCE_ZONES } from '../../../test/conformance/conformance-zones.ts';
import { buildMalformedCorpus } from '../../../test/conformance/malformed-corpus.ts';
import { buildQueryCorpus } from '../../../test/conformance/query-corpus.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { createMessageHandler, createOutcome, type ClientInfo } from '../server/handle-message.ts';
import { PackedNodeTable, packedCache } from './packed-node-table.ts';
import { packedZone } from './packed-records.ts';
import type { ZoneData } from './zone-data.ts';
import { zoneDataFromText } from './zone-data-from-text.ts';
import { ZoneStore } from './zone-store.ts';

const CLIENTS: ClientInfo[] = [
  { transport: 'udp', address: '192.0.2.53', port: 5353, family: 4 },
  { transport: 'tcp', address: '192.0.2.53', port: 5353, family: 4 },
];

/** The zone as a node cold-started from its snapshot file hands it over: packed, with its apex records. */
function stores(): { whole: ZoneStore; packed: ZoneStore } {
  const zones = CONFORMANCE_ZONES.map(zoneDataFromText);
  const whole = new ZoneStore();
  whole.replaceAll(zones);
  const packedStore = new ZoneStore();
  packedStore.replaceAll(zones.map(packedZone));
  return { whole, packed: packedStore };
}

/** A random variation of `wire` a resolver could send for the same question (ID, RD, 0x20 case). */
function vary(wire: Uint8Array, rnd: ReturnType<typeof createSeededRandom>): Buffer {
  const q = Buffer.from(wire);
  if (q.length < 12) return q;
  q[0] = rnd.int(256);
  q[1] = rnd.int(256);
  if (rnd.int(4) === 0) q[2] = q[2]! ^ 0x01;
  for (let p = 12; p < q.length && q[p] !== 0 && q[p]! < 64; p += q[p]! + 1) {
    for (let i = p + 1; i <= p + q[p]! && i < q.length; i++) {
      const c = q[i]!;
      if (((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) && rnd.int(2) === 0) q[i] = c ^ 0x20;
    }
  }
  return q;
}

const saved = packedCache.generation;
afterEach(() => {
  packedCache.generation = saved;
});

describe('a packed zone answers as the zone built whole', () => {
  it.each([saved, 2])('every corpus query, UDP and TCP, node cache of %i', (generation) => {
    packedCache.generation = generation;
    const { whole, packed: packedStore } = stores();
    for (const zone of CONFORMANCE_ZONES.map(zoneDataFromText)) {
      expect(packedStore.get(zone.id)!.nodes).toBeInstanceOf(PackedNodeTable);
    }
    const rnd = createSeededRandom(20261130);
    const cases = [...buildQueryCorpus(), ...buildMalformedCorpus()];
    let compared = 0;
    for (const client of CLIENTS) {
      const askWhole = createMessageHandler(whole);
      const askPacked = createMessageHandler(packedStore);
      const outW = createOutcome();
      const outP = createOutcome();
      for (const c of cases) {
        for (const q of [c.wire, vary(c.wire, rnd), vary(c.wire, rnd)]) {
          const w = askWhole(q, client, outW);
          const p = askPacked(q, client, outP);
          expect(p === null ? 'none' : Buffer.from(p).toString('hex'), `${c.id} ${client.transport}`).toBe(
            w === null ? 'none' : Buffer.from(w).toString('hex'),
          );
          expect({ ...outP }, `${c.id} outcome`).toEqual({ ...outW });
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(6000);
  });

  it('holds every name of every zone, empty non-terminals included, with the same RRsets', () => {
    const { whole, packed: packedStore } = stores();
    for (const zone of CONFORMANCE_ZONES.map(zoneDataFromText)) {
      const w = whole.get(zone.id)!;
      const p = packedStore.get(zone.id)!;
      expect(p.nodes.size, zone.domain).toBe(w.nodes.size);
      expect(p.hasWildcards).toBe(w.hasWildcards);
      expect(p.skipped).toBe(w.skipped);
      for (const [key, node] of w.nodes) {
        const other = p.nodes.get(key);
        expect(other, `${zone.domain} ${key}`).toBeDefined();
        expect(other!.delegation).toBe(node.delegation);
        expect(Buffer.from(other!.wire).toString('hex')).toBe(Buffer.from(node.wire).toString('hex'));
        expect(
          other!.rrsets.map((rs) => [rs.type, rs.ttl, rs.rdatas.map((r) => Buffer.from(r).toString('hex'))]),
        ).toEqual(
          node.rrsets.map((rs) => [rs.type, rs.ttl, rs.rdatas.map((r) => Buffer.from(r).toString('hex'))]),
        );
      }
      expect(new Set(p.nodes.keys())).toEqual(new Set(w.nodes.keys()));
    }
  });

  it.each(['online', 'nsec3'] as const)(
    'answers a signed zone as built whole, DO set (%s denial)',
    (denial) => {
      const ksk = generateDnssecKey(13, 'ksk');
      const zsk = generateDnssecKey(13, 'zsk');
      const dnssec: ZoneDnssec = {
        algorithm: 13,
        ksk: { algorithm: 13, keyTag: ksk.keyTag, privateKeyPkcs8: ksk.privateKeyPkcs8 },
        zsk: { algorithm: 13, keyTag: zsk.keyTag, privateKeyPkcs8: zsk.privateKeyPkcs8 },
        nsecTtl: 300,
        denial,
      };
      const data = zoneDataFromText({ id: 7, domain: 'signed.example', text: SIGNED_ZONE });
      const extra = [ksk, zsk].map((k) => ({ name: 'signed.example', type: 48, ttl: 3600, rdata: k.dnskey }));
      if (denial === 'nsec3')
        extra.push({ name: 'signed.example', type: 51, ttl: 0, rdata: NSEC3PARAM_RDATA });
      const zone: ZoneData = { ...data, records: [...data.records, ...extra], dnssec };
      const whole = new ZoneStore();
      whole.replaceAll([zone]);
      packedCache.generation = 2;
      const packedStore = new ZoneStore();
      packedStore.replaceAll([packedZone(zone)]);
      const nodes = packedStore.get(7)!.nodes;
      expect(nodes).toBeInstanceOf(PackedNodeTable);
      // Signing is set up from the packed records: no name's node is made for it.
      const made = (nodes as PackedNodeTable).made;
      const signing = signingFor(packedStore.get(7)!)!;
      expect(signing.exists(keyOfText('www.signed.example'))).toBe(true);
      expect(signing.exists(keyOfText('ns.secure.signed.example'))).toBe(false);
      expect((nodes as PackedNodeTable).made).toBe(made);
      const askWhole = createMessageHandler(whole);
      const askPacked = createMessageHandler(packedStore);
      const out = createOutcome();
      const names = [
        'signed.example',
        'www',
        'alias',
        'dangling',
        'x.wild',
        'a.b.wild',
        'deep.secure',
        'x.insecure',
        'nx',
        'ns1',
      ];
      for (const name of names) {
        for (const qtype of [1, 2, 6, 15, 16, 28, 43, 48, 255]) {
          const fq = name.includes('.example') ? name : `${name}.signed.example`;
          const q = buildQuery({ id: 1, name: fq, qtype, edns: { payload: 4096, do: true } });
          for (let ask = 0; ask < 2; ask++) {
            const w = decodeSigned(askWhole(q, UDP, out));
            expect(decodeSigned(askPacked(q, UDP, out)), `${fq} ${qtype}`).toEqual(w);
          }
        }
      }
    },
  );
});

const UDP: ClientInfo = { transport: 'udp', address: '192.0.2.53', port: 5353, family: 4 };

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
mail MX 10 www
www A 192.0.2.80
www MX 10 mail
www AAAA 2001:db8::80
alias CNAME www
dangling CNAME gone
*.wild A 192.0.2.99
*.wild TXT "wild"
secure NS ns.secure
secure DS 12345 13 2 ${'ab'.repeat(32)}
ns.secure A 192.0.2.53
insecure NS ns.other.example.
`;

/** An answer as records, each RRSIG without its signature (ECDSA signs with a random nonce). */
function decodeSigned(wire: Buffer | Uint8Array | null): unknown {
  if (wire === null) return null;
  const m = dnsPacket.decode(Buffer.from(wire));
  const strip = (rs: dnsPacket.Answer[] | undefined): unknown[] =>
    (rs ?? []).map((r) => (r.type === 'RRSIG' ? { ...r, data: { ...r.data, signature: null } } : r));
  return {
    flags: m.flags,
    answers: strip(m.answers),
    authorities: strip(m.authorities),
    additionals: strip(m.additionals),
  };
}
