import { describe, expect, it } from 'vitest';
import { keyOfText } from '../wire/wire-name.ts';
import { generateDnssecKey, publicKeyFromDnskey } from './dnssec-key.ts';
import { verifyRRsig } from './rrsig-signer.ts';
import { SignatureCache, signatureCacheKey } from './signature-cache.ts';
import { SIGNATURE_INCEPTION_BACKDATE_S, SIGNATURE_VALIDITY_MIN_S, ZoneSigner } from './zone-signer.ts';

const apex = keyOfText('example.org');
const ksk = generateDnssecKey(13, 'ksk');
const zsk = generateDnssecKey(13, 'zsk');
const material = {
  algorithm: 13 as const,
  ksk: { algorithm: 13 as const, keyTag: ksk.keyTag, privateKeyPkcs8: ksk.privateKeyPkcs8 },
  zsk: { algorithm: 13 as const, keyTag: zsk.keyTag, privateKeyPkcs8: zsk.privateKeyPkcs8 },
  nsecTtl: 300,
};
const a = (n: number): Uint8Array => Uint8Array.of(192, 0, 2, n);

describe('ZoneSigner and the signature cache', () => {
  it('signs DNSKEY/CDS/CDNSKEY with the KSK and the rest with the ZSK, with the validity window', () => {
    let now = 1_800_000_000_000;
    const signer = new ZoneSigner(apex, material, { now: () => now, jitter: () => 0 });
    const www = keyOfText('www.example.org');
    const rrsig = Buffer.from(signer.sign(www, 1, 300, [a(1)]));
    expect(rrsig.readUInt16BE(16)).toBe(zsk.keyTag);
    expect(rrsig.readUInt32BE(12)).toBe(now / 1000 - SIGNATURE_INCEPTION_BACKDATE_S);
    expect(rrsig.readUInt32BE(8)).toBe(now / 1000 + SIGNATURE_VALIDITY_MIN_S);
    const set = { ownerKey: www, type: 1, ttl: 300, rdatas: [a(1)] };
    expect(verifyRRsig(rrsig, set, publicKeyFromDnskey(zsk.dnskey))).toBe(true);
    for (const type of [48, 59, 60]) {
      expect(Buffer.from(signer.sign(apex, type, 3600, [ksk.dnskey])).readUInt16BE(16)).toBe(ksk.keyTag);
    }
    // Cached: same bytes until the refresh point, then a fresh signature.
    expect(Buffer.from(signer.sign(www, 1, 300, [a(1)]))).toEqual(rrsig);
    now += (SIGNATURE_VALIDITY_MIN_S / 2) * 1000;
    expect(Buffer.from(signer.sign(www, 1, 300, [a(1)]))).not.toEqual(rrsig);
  });

  it('keys by RRset content independent of record order, and stays within its bound', () => {
    expect(signatureCacheKey('x', 1, 60, [a(1), a(2)], 'k')).toBe(
      signatureCacheKey('x', 1, 60, [a(2), a(1)], 'k'),
    );
    expect(signatureCacheKey('x', 1, 60, [a(1)], 'k')).not.toBe(signatureCacheKey('x', 1, 61, [a(1)], 'k'));
    const cache = new SignatureCache(3);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, Uint8Array.of(i), 100);
    expect(cache.size).toBe(3);
    expect(cache.get('k0', 0)).toBeNull();
    expect(cache.get('k4', 0)).toEqual(Uint8Array.of(4));
    expect(cache.get('k4', 100)).toBeNull();
    const shared = new SignatureCache();
    const signer = new ZoneSigner(apex, material, { cache: shared });
    for (let i = 0; i < 100; i++) signer.sign(keyOfText('lb.example.org'), 1, 30, [a(2), a(1)]);
    expect(shared.misses).toBe(1);
    expect(shared.hits).toBe(99);
  });
});
