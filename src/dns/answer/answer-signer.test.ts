import { describe, expect, it } from 'vitest';
import { createPlan, resetPlan } from './answer-plan.ts';
import { createResolverScratch, resolveInZone } from './name-resolver.ts';
import { keyOfText, wireNameFromText } from '../wire/wire-name.ts';
import { buildZoneSnapshot } from '../zone/zone-snapshot-builder.ts';
import { zoneFromText } from '../../testing/dns-zone-fixture.ts';
import { signPlan } from './answer-signer.ts';
import { compareCanonical, labelsOfKey } from '../dnssec/canonical-name.ts';
import { generateDnssecKey, publicKeyFromDnskey } from '../dnssec/dnssec-key.ts';
import { verifyRRsig } from '../dnssec/rrsig-signer.ts';
import { ENTRY_LIFETIME_MS } from '../dnssec/denial-answer-cache.ts';
import { createZoneSigning, type ZoneSigning } from '../dnssec/zone-signing.ts';

const ZONE = `
$ORIGIN signed.test.
$TTL 300
@ 3600 SOA ns1 hostmaster 1 7200 3600 1209600 300
@ NS ns1
ns1 A 192.0.2.53
www A 192.0.2.80
*.wild A 192.0.2.99
alias CNAME www
a.b.ent A 192.0.2.7
insecure NS ns.elsewhere.example.
secure NS ns.elsewhere.example.
secure DS 12345 13 2 ${'ab'.repeat(32)}
`;
const ksk = generateDnssecKey(13, 'ksk');
const zsk = generateDnssecKey(13, 'zsk');
const zone = buildZoneSnapshot(zoneFromText(1, 'signed.test', ZONE));
const material = {
  algorithm: 13,
  ksk: { algorithm: 13, keyTag: ksk.keyTag, privateKeyPkcs8: ksk.privateKeyPkcs8 },
  zsk: { algorithm: 13, keyTag: zsk.keyTag, privateKeyPkcs8: zsk.privateKeyPkcs8 },
  nsecTtl: 300,
} as const;
const signing = createZoneSigning(zone, material);
const zskPub = publicKeyFromDnskey(zsk.dnskey);

function answer(qname: string, qtype: number, s: ZoneSigning = signing) {
  const plan = createPlan();
  resetPlan(plan);
  const n = wireNameFromText(qname);
  resolveInZone(
    plan,
    zone,
    {
      query: null,
      keys: n.keys,
      owner: null,
      wire: n.wire,
      wireLength: n.wire.length,
    },
    qtype,
    createResolverScratch(),
  );
  const qkey = n.keys[0]!;
  signPlan(plan, zone, s, qkey, qtype);
  const sections = plan.sections.map((s) =>
    s.sets.slice(0, s.count).map((rs, i) => ({ owner: s.owners[i]?.keys[0] ?? qkey, rs })),
  );
  // Every RRSIG verifies over the RRset before it (wildcard expansions: over the wildcard).
  for (const sec of sections.slice(0, 2)) {
    for (let i = 0; i < sec.length; i++) {
      const { rs } = sec[i]!;
      if (rs.type !== 46) continue;
      const covered = sec[i - 1]!;
      const rrsig = rs.rdatas[0]!;
      const labels = rrsig[3]!;
      const ownerLabels = labelsOfKey(covered.owner);
      const signedOwner =
        labels < ownerLabels.length
          ? `\x01*${keyOfText(ownerLabels.slice(-labels).join('.'))}`
          : covered.owner;
      const ok = verifyRRsig(
        rrsig,
        { ownerKey: signedOwner, type: covered.rs.type, ttl: covered.rs.ttl, rdatas: covered.rs.rdatas },
        zskPub,
      );
      expect(ok, `RRSIG over ${covered.rs.type}`).toBe(true);
    }
  }
  const nsec = sections[1]!
    .filter((e) => e.rs.type === 47)
    .map((e) => ({ owner: e.owner, next: e.rs.rdatas[0]! }));
  return { plan, sections, nsec };
}

const nextKey = (rdata: Uint8Array): string => {
  let p = 0;
  while (rdata[p] !== 0) p += rdata[p]! + 1;
  return Buffer.from(rdata.subarray(0, p)).toString('latin1');
};
const covers = (n: { owner: string; next: Uint8Array }, name: string): boolean =>
  compareCanonical(n.owner, keyOfText(name)) < 0 && compareCanonical(keyOfText(name), nextKey(n.next)) < 0;

describe('signing answers (RFC 4035 §3.1)', () => {
  it('signs a positive answer; the NS of the apex in no section is left unsigned', () => {
    const { sections } = answer('www.signed.test', 1);
    expect(sections[0]!.map((e) => e.rs.type)).toEqual([1, 46]);
  });

  it('proves NXDOMAIN with two minimally covering NSECs', () => {
    const { plan, nsec } = answer('nope.signed.test', 1);
    expect(plan.rcode).toBe(3);
    expect(nsec).toHaveLength(2);
    expect(nsec.some((n) => covers(n, 'nope.signed.test') && covers(n, 'x.nope.signed.test'))).toBe(true);
    expect(nsec.some((n) => covers(n, '*.signed.test'))).toBe(true);
    expect(nsec.every((n) => !covers(n, 'www.signed.test') && !covers(n, 'ns1.signed.test'))).toBe(true);
  });

  it('proves NODATA with the NSEC at the name (empty non-terminal: RRSIG NSEC only)', () => {
    const { nsec } = answer('b.ent.signed.test', 1);
    expect(nsec.map((n) => n.owner)).toEqual([keyOfText('b.ent.signed.test')]);
    expect(Buffer.from(nsec[0]!.next).toString('hex').endsWith('0006000000000003')).toBe(true);
  });

  it('signs a wildcard expansion as the wildcard and proves the name itself does not exist', () => {
    const { sections, nsec } = answer('host.wild.signed.test', 1);
    const rrsig = sections[0]![1]!.rs.rdatas[0]!;
    expect(rrsig[3]).toBe(3);
    expect(nsec).toHaveLength(1);
    expect(covers(nsec[0]!, 'host.wild.signed.test')).toBe(true);
    const nodata = answer('host.wild.signed.test', 16);
    expect(nodata.nsec.map((n) => n.owner)).toContain(keyOfText('*.wild.signed.test'));
  });

  it('refers to an insecure delegation with the NSEC showing NS without DS, to a secure one with DS', () => {
    const insecure = answer('www.insecure.signed.test', 1);
    expect(insecure.sections[1]!.map((e) => e.rs.type)).toEqual([2, 47, 46]);
    const secure = answer('www.secure.signed.test', 1);
    expect(secure.sections[1]!.map((e) => e.rs.type)).toEqual([2, 43, 46]);
    const dsNodata = answer('insecure.signed.test', 43);
    expect(dsNodata.nsec.map((n) => n.owner)).toEqual([keyOfText('insecure.signed.test')]);
  });

  it('answers an NSEC query at an existing name with its NSEC', () => {
    const { plan, sections } = answer('www.signed.test', 47);
    expect(plan.kind).toBe('found');
    expect(sections[0]!.map((e) => e.rs.type)).toEqual([47, 46]);
    expect(sections[1]).toEqual([]);
  });

  it('signs each CNAME of a chain', () => {
    const { sections } = answer('alias.signed.test', 1);
    expect(sections[0]!.map((e) => e.rs.type)).toEqual([5, 46, 1, 46]);
  });

  it('reuses the signed authority section of a repeated negative answer, per name and kind, for a while', () => {
    let nowMs = Date.now();
    const timed = createZoneSigning(zone, material, { now: () => nowMs });
    const first = answer('gone.signed.test', 1, timed);
    const again = answer('gone.signed.test', 28, timed);
    expect(again.sections[1]!.map((e) => e.rs)).toEqual(first.sections[1]!.map((e) => e.rs));
    again.sections[1]!.forEach((e, i) => expect(e.rs).toBe(first.sections[1]![i]!.rs));
    // Another name, or NODATA rather than NXDOMAIN, is its own entry.
    const other = answer('other.signed.test', 1, timed);
    expect(other.sections[1]![2]!.rs).not.toBe(first.sections[1]![2]!.rs);
    answer('b.ent.signed.test', 1, timed);
    expect(timed.denials.size).toBe(3);
    nowMs += ENTRY_LIFETIME_MS;
    const later = answer('gone.signed.test', 1, timed);
    expect(later.sections[1]!.map((e) => e.rs.type)).toEqual(first.sections[1]!.map((e) => e.rs.type));
    expect(later.sections[1]![2]!.rs).not.toBe(first.sections[1]![2]!.rs);
  });
});
