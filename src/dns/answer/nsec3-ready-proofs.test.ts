/**
 * NSEC3 proofs written as ready bytes (nsec3-ready-records.ts, ResponseWriter.addReadyPair) are
 * byte for byte what the RRset path writes, for every kind of denial, query name shape, letter
 * case, payload size and transport; a proof that does not fit truncates the answer; a block is
 * remade in place when its signature is due for refresh, and remade for another signer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildQuery } from '../../../test/conformance/query-wire-builder.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { zoneFromText } from '../../testing/dns-zone-fixture.ts';
import { generateDnssecKey } from '../dnssec/dnssec-key.ts';
import { NSEC3PARAM_RDATA, Nsec3Chain } from '../dnssec/nsec3-chain.ts';
import { ZoneSigner } from '../dnssec/zone-signer.ts';
import { rrsigRRset } from '../dnssec/rrsig-rrset.ts';
import { keyOfText } from '../wire/wire-name.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { ZoneStore } from '../zone/zone-store.ts';
import { createMessageHandler, createOutcome } from '../server/handle-message.ts';
import type { ClientInfo } from '../server/handle-message.ts';
import { nsec3ReadyProofs, signPlan } from './answer-signer.ts';
import { createPlan, resetPlan } from './answer-plan.ts';
import { createResolverScratch, resolveInZone } from './name-resolver.ts';
import { buildZoneSnapshot } from '../zone/zone-snapshot-builder.ts';
import { NSEC3_SIGN_SLICE, createZoneSigning } from '../dnssec/zone-signing.ts';
import { base32hex, nsec3Hash } from '../dnssec/nsec3-chain.ts';
import { wireNameFromText } from '../wire/wire-name.ts';

const ORIGIN = 'proofs.test';
const ZONE = `
$ORIGIN proofs.test.
$TTL 300
@ 3600 SOA ns1 hostmaster 1 7200 3600 1209600 300
@ NS ns1
ns1 A 192.0.2.53
www A 192.0.2.80
mail A 192.0.2.25
*.wild A 192.0.2.99
a.b.ent A 192.0.2.7
deep.x.y.z A 192.0.2.8
insecure NS ns.elsewhere.example.
`;
const ksk = generateDnssecKey(13, 'ksk');
const zsk = generateDnssecKey(13, 'zsk');
const material = {
  algorithm: 13,
  ksk: { algorithm: 13, keyTag: ksk.keyTag, privateKeyPkcs8: ksk.privateKeyPkcs8 },
  zsk: { algorithm: 13, keyTag: zsk.keyTag, privateKeyPkcs8: zsk.privateKeyPkcs8 },
  nsecTtl: 300,
  denial: 'nsec3',
} as const;

function signedStore(): ZoneStore {
  const data = zoneFromText(1, ORIGIN, ZONE);
  const store = new ZoneStore();
  store.replaceAll([
    {
      ...data,
      records: [
        ...data.records,
        { name: ORIGIN, type: RR_TYPE.DNSKEY, ttl: 3600, rdata: ksk.dnskey },
        { name: ORIGIN, type: RR_TYPE.DNSKEY, ttl: 3600, rdata: zsk.dnskey },
        { name: ORIGIN, type: RR_TYPE.NSEC3PARAM, ttl: 0, rdata: NSEC3PARAM_RDATA },
      ],
      dnssec: material,
    },
  ]);
  return store;
}

const UDP: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };
const TCP: ClientInfo = { ...UDP, transport: 'tcp' };

/** Random label of `length` octets, letters in mixed case (0x20) and digits. */
function label(rnd: ReturnType<typeof createSeededRandom>, length: number): string {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let out = '';
  for (let i = 0; i < length; i++) out += chars[rnd.int(chars.length)];
  return out;
}

/** Names of every denial kind: missing names at several depths, NODATA, wildcard NODATA, ENT. */
function queryNames(): { name: string; qtype: number }[] {
  const rnd = createSeededRandom(42);
  const out: { name: string; qtype: number }[] = [
    { name: `www.${ORIGIN}`, qtype: RR_TYPE.TXT },
    { name: `WWW.Proofs.Test`, qtype: RR_TYPE.MX },
    { name: `b.ent.${ORIGIN}`, qtype: RR_TYPE.A },
    { name: `x.y.z.${ORIGIN}`, qtype: RR_TYPE.AAAA },
    { name: `anything.wild.${ORIGIN}`, qtype: RR_TYPE.TXT },
    { name: ORIGIN, qtype: RR_TYPE.TXT },
  ];
  const parents = ['', 'www.', 'a.b.ent.', 'ent.', 'y.z.', 'x.y.z.'];
  for (let i = 0; i < 60; i++) {
    const parent = parents[i % parents.length]!;
    const depth = 1 + (i % 3);
    const labels = Array.from({ length: depth }, () => label(rnd, 1 + rnd.int(20)));
    out.push({
      name: `${labels.join('.')}.${parent}${ORIGIN}`,
      qtype: i % 2 === 0 ? RR_TYPE.A : RR_TYPE.TXT,
    });
  }
  // A 32-octet label right below the apex: an NSEC3 owner's shape (the RRset path answers these).
  for (let i = 0; i < 6; i++) out.push({ name: `${label(rnd, 32)}.${ORIGIN}`, qtype: RR_TYPE.A });
  out.push({ name: `sub.${label(rnd, 32)}.${ORIGIN}`, qtype: RR_TYPE.A });
  return out;
}

function answerBoth(
  handle: ReturnType<typeof createMessageHandler>,
  query: Buffer,
  client: ClientInfo,
): { ready: Buffer; reference: Buffer } {
  const out = createOutcome();
  nsec3ReadyProofs.enabled = true;
  const ready = handle(query, client, out)!;
  nsec3ReadyProofs.enabled = false;
  const reference = handle(query, client, out)!;
  nsec3ReadyProofs.enabled = true;
  return { ready, reference };
}

const TC = 0x02;
const ANCOUNT = 6;
const NSCOUNT = 8;

describe('NSEC3 proofs as ready bytes', () => {
  afterEach(() => {
    nsec3ReadyProofs.enabled = true;
  });

  it('writes every denial byte for byte as the RRset path, at every payload size and over TCP', () => {
    const handle = createMessageHandler(signedStore());
    const before = nsec3ReadyProofs.answers;
    let compared = 0;
    let truncated = 0;
    for (const { name, qtype } of queryNames()) {
      for (const payload of [512, 700, 900, 1232, 4096]) {
        const query = buildQuery({ name, qtype, edns: { payload, do: true } });
        const { ready, reference } = answerBoth(handle, query, UDP);
        const rcode = ready[3]! & 0x0f;
        expect([0, 3], name).toContain(rcode);
        if ((ready[2]! & TC) !== 0) {
          // A proof that does not fit truncates the answer; the RRset path truncates too.
          expect(reference[2]! & TC, name).toBe(TC);
          truncated++;
          continue;
        }
        expect(ready.toString('hex'), `${name} ${qtype} payload ${payload}`).toBe(reference.toString('hex'));
        compared++;
      }
      const tcpQuery = buildQuery({ name, qtype, edns: { payload: 1232, do: true } });
      const tcp = answerBoth(handle, tcpQuery, TCP);
      expect(tcp.ready.toString('hex'), `${name} over TCP`).toBe(tcp.reference.toString('hex'));
      // A negative answer: nothing in the answer section, SOA + RRSIG and NSEC3 + RRSIG pairs.
      if ((tcp.ready[3]! & 0x0f) === 3 || tcp.ready.readUInt16BE(ANCOUNT) === 0) {
        expect(tcp.ready.readUInt16BE(NSCOUNT) % 2, name).toBe(0);
        expect(tcp.ready.readUInt16BE(NSCOUNT), name).toBeGreaterThanOrEqual(4);
      }
    }
    expect(compared).toBeGreaterThan(200);
    expect(truncated).toBeGreaterThan(0);
    // Most answers took the ready path (the 32-octet labels below the apex did not).
    expect(nsec3ReadyProofs.answers - before).toBeGreaterThan(300);
  });

  it('answers the same bytes on every repetition (blocks made once, reused)', () => {
    const handle = createMessageHandler(signedStore());
    const out = createOutcome();
    const query = buildQuery({
      name: `nothere.${ORIGIN}`,
      qtype: RR_TYPE.A,
      edns: { payload: 1232, do: true },
    });
    const first = handle(query, UDP, out)!;
    for (let i = 0; i < 5; i++) expect(handle(query, UDP, out)!.equals(first)).toBe(true);
    const other = buildQuery({ name: `else.${ORIGIN}`, qtype: RR_TYPE.A, edns: { payload: 1232, do: true } });
    handle(other, UDP, out);
    expect(handle(query, UDP, out)!.equals(first)).toBe(true);
  });
});

describe('NSEC3 closest encloser of a missing name', () => {
  /** The hashed owner labels of the ready proofs of an NXDOMAIN for `qname`. */
  function proofOwners(signing: ReturnType<typeof createZoneSigning>, qname: string): string[] {
    const zone = buildZoneSnapshot(zoneFromText(1, ORIGIN, ZONE));
    const plan = createPlan();
    resetPlan(plan);
    const n = wireNameFromText(qname);
    const start = { query: null, keys: n.keys, owner: null, wire: n.wire, wireLength: n.wire.length };
    resolveInZone(plan, zone, start, RR_TYPE.A, createResolverScratch());
    expect(plan.kind).toBe('nxdomain');
    signPlan(plan, zone, signing, n.keys[0]!, RR_TYPE.A);
    const r = plan.ready;
    return Array.from({ length: r.count }, (_, i) =>
      Buffer.from(r.bytes.subarray(r.at[i]! + 1, r.at[i]! + 33)).toString('latin1'),
    );
  }
  const hashOf = (name: string): string => base32hex(nsec3Hash(keyOfText(name)));

  it('is the apex or the deepest existing name; a load balancer counts though it has no node', () => {
    const zone = buildZoneSnapshot(zoneFromText(1, ORIGIN, ZONE));
    const plain = createZoneSigning(zone, material);
    expect(proofOwners(plain, `nothere.${ORIGIN}`)).toContain(hashOf(ORIGIN));
    expect(proofOwners(plain, `x.nothere.${ORIGIN}`)).toContain(hashOf(ORIGIN));
    expect(proofOwners(plain, `x.www.${ORIGIN}`)).toContain(hashOf(`www.${ORIGIN}`));
    expect(proofOwners(plain, `q.a.b.ent.${ORIGIN}`)).toContain(hashOf(`a.b.ent.${ORIGIN}`));
    expect(proofOwners(plain, `q.x.b.ent.${ORIGIN}`)).toContain(hashOf(`b.ent.${ORIGIN}`));
    // A load balancer at lb.proofs.test: names below it are proven from it, not from the apex.
    const lb = keyOfText(`lb.${ORIGIN}`);
    const withLb = createZoneSigning(zone, material, {
      synthesized: { types: new Map([[lb, [RR_TYPE.A]]]), rrsets: [] },
    });
    const owners = proofOwners(withLb, `x.lb.${ORIGIN}`);
    expect(owners).toContain(hashOf(`lb.${ORIGIN}`));
    expect(owners).not.toContain(hashOf(ORIGIN));
  });
});

describe('a large chain signed in slices', () => {
  it('returns before every record is signed, signs one asked for at once, and finishes between queries', async () => {
    const hosts = Array.from({ length: 3 * NSEC3_SIGN_SLICE }, (_, i) => `h${i} A 192.0.2.${i % 250}`);
    const zone = buildZoneSnapshot(zoneFromText(7, ORIGIN, `${ZONE}\n${hosts.join('\n')}\n`));
    const signing = createZoneSigning(zone, material);
    const chain = signing.nsec3!;
    const now = signing.signer.nowMs();
    const signed = (): number =>
      chain.list().filter((r) => signing.signer.cachedObject(r.rrset, r.ownerKey, now) !== undefined).length;
    expect(chain.size).toBeGreaterThan(3 * NSEC3_SIGN_SLICE);
    // Nothing is signed before the thread yields: the first slice runs on the next turn.
    expect(signed()).toBe(0);
    // An answer meanwhile signs the records it proves with.
    const plan = createPlan();
    resetPlan(plan);
    const n = wireNameFromText(`missing.${ORIGIN}`);
    const start = { query: null, keys: n.keys, owner: null, wire: n.wire, wireLength: n.wire.length };
    resolveInZone(plan, zone, start, RR_TYPE.A, createResolverScratch());
    signPlan(plan, zone, signing, n.keys[0]!, RR_TYPE.A);
    expect(plan.ready.count).toBeGreaterThanOrEqual(2);
    expect(signed()).toBe(plan.ready.count);
    // One slice a turn of the event loop, then all of them.
    await new Promise((resolve) => setImmediate(resolve));
    const afterOne = signed();
    expect(afterOne).toBeGreaterThanOrEqual(NSEC3_SIGN_SLICE);
    expect(afterOne).toBeLessThan(chain.size);
    await signing.chainSigned;
    expect(signed()).toBe(chain.size);
  });

  it('ends the signing of an older chain when a newer one of the same zone starts', async () => {
    const hosts = Array.from({ length: 3 * NSEC3_SIGN_SLICE }, (_, i) => `h${i} A 192.0.2.${i % 250}`);
    const zone = buildZoneSnapshot(zoneFromText(8, ORIGIN, `${ZONE}\n${hosts.join('\n')}\n`));
    const older = createZoneSigning(zone, material);
    const newer = createZoneSigning(zone, material);
    await older.chainSigned;
    const now = older.signer.nowMs();
    const signedByOlder = older
      .nsec3!.list()
      .filter((r) => older.signer.cachedObject(r.rrset, r.ownerKey, now) !== undefined).length;
    expect(signedByOlder).toBeLessThan(older.nsec3!.size);
    await newer.chainSigned;
  });
});

describe('Nsec3ReadyRecords', () => {
  const k = keyOfText;
  const types = new Map<string, number[]>([
    [k('example'), [RR_TYPE.NS, RR_TYPE.SOA]],
    [k('a.example'), [RR_TYPE.A]],
    [k('b.example'), [RR_TYPE.A]],
  ]);
  const zone = { apexKey: k('example'), typesAt: (key: string) => types.get(key) ?? [] };

  it('holds label, apex pointer, NSEC3, owner pointer and RRSIG; remakes in place on refresh', () => {
    let now = Date.UTC(2026, 0, 1);
    const signer = new ZoneSigner(k('example'), material, { now: () => now, jitter: () => 0 });
    const chain = new Nsec3Chain(zone, 300, types.keys());
    const ready = chain.ready();
    const i = chain.indexOf(chain.matching(k('a.example'))!);
    const record = chain.at(i);
    const at = ready.ensure(i, record, signer, now);
    const block = ready.bytes.slice(at, at + ready.lengthOf(i));
    const owner = record.owner.bytes.subarray(record.owner.at, record.owner.at + 33);
    expect(Buffer.from(block.subarray(0, 33)).equals(Buffer.from(owner))).toBe(true);
    const nsec3 = record.rrset.data.subarray(record.rrset.start);
    expect(Buffer.from(block.subarray(35, 35 + nsec3.length)).equals(Buffer.from(nsec3))).toBe(true);
    const sig = signer.signedObject(record.rrset, record.ownerKey, rrsigRRset);
    const sigAt = 35 + nsec3.length + 2;
    expect(Buffer.from(block.subarray(sigAt)).equals(Buffer.from(sig.data.subarray(sig.start)))).toBe(true);
    expect(block.length).toBe(sigAt + sig.data.length - sig.start);

    // Still fresh a day later: the same block.
    now += 86_400_000;
    expect(ready.ensure(i, record, signer, now)).toBe(at);
    expect(Buffer.from(ready.bytes.subarray(at, at + block.length)).equals(Buffer.from(block))).toBe(true);

    // Past the refresh point: a new signature, written over the old block.
    now += 30 * 86_400_000;
    expect(ready.ensure(i, record, signer, now)).toBe(at);
    const refreshed = ready.bytes.slice(at, at + ready.lengthOf(i));
    expect(Buffer.from(refreshed).equals(Buffer.from(block))).toBe(false);
    const fresh = signer.signedObject(record.rrset, record.ownerKey, rrsigRRset);
    expect(Buffer.from(refreshed.subarray(sigAt)).equals(Buffer.from(fresh.data.subarray(fresh.start)))).toBe(
      true,
    );

    // Another signer (a key change): the block is made again with its signature.
    const other = new ZoneSigner(k('example'), material, { now: () => now, jitter: () => 0 });
    const again = ready.ensure(i, record, other, now);
    const otherSig = other.signedObject(record.rrset, record.ownerKey, rrsigRRset);
    const remade = ready.bytes.subarray(again + sigAt, again + ready.lengthOf(i));
    expect(Buffer.from(remade).equals(Buffer.from(otherSig.data.subarray(otherSig.start)))).toBe(true);
  });

  it('grows without moving what callers hold: earlier offsets keep their bytes', () => {
    const many = new Map(types);
    for (let n = 0; n < 600; n++) many.set(k(`host${n}.example`), [RR_TYPE.A]);
    const z = { apexKey: k('example'), typesAt: (key: string) => many.get(key) ?? [] };
    const now = Date.UTC(2026, 0, 1);
    const signer = new ZoneSigner(k('example'), material, { now: () => now, jitter: () => 0 });
    const chain = new Nsec3Chain(z, 300, many.keys());
    const ready = chain.ready();
    const first = ready.ensure(0, chain.at(0), signer, now);
    const firstBytes = ready.bytes.slice(first, first + ready.lengthOf(0));
    for (let i = 1; i < chain.size; i++) ready.ensure(i, chain.at(i), signer, now);
    expect(ready.bytes.length).toBeGreaterThan(64 * 1024);
    expect(
      Buffer.from(ready.bytes.subarray(first, first + firstBytes.length)).equals(Buffer.from(firstBytes)),
    ).toBe(true);
  });
});
