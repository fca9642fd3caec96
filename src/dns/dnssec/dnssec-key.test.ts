import { createECDH, createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { wireNameFromText } from '../wire/wire-name.ts';
import {
  dnskeyRdata,
  dsRdata,
  generateDnssecKey,
  keyTag,
  publicKeyBytes,
  publicKeyFromDnskey,
} from './dnssec-key.ts';
import { verify } from 'node:crypto';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('DNSSEC key material', () => {
  it('matches the RFC 6605 §6.1 ECDSAP256SHA256 example (public key, key tag, DS)', () => {
    const e = createECDH('prime256v1');
    e.setPrivateKey(Buffer.from('GU6SnQ/Ou+xC5RumuIUIuJZteXT2z0O/ok1s38Et6mQ=', 'base64'));
    const pub = e.getPublicKey().subarray(1);
    expect(pub.toString('base64')).toBe(
      'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==',
    );
    const dnskey = dnskeyRdata(257, 13, pub);
    expect(keyTag(dnskey)).toBe(55648);
    const ds = dsRdata(wireNameFromText('example.net').wire, dnskey);
    expect(hex(ds)).toBe(`d9600d02${'b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e37df61d17'}`);
    // The DNSKEY round-trips to a usable public key.
    expect(publicKeyBytes(publicKeyFromDnskey(dnskey), 13)).toEqual(new Uint8Array(pub));
  });

  it('matches the RFC 8080 §6.1 Ed25519 example (public key, key tag, DS)', () => {
    const seed = Buffer.from('ODIyNjAzODQ2MjgwODAxMjI2NDUxOTAyMDQxNDIyNjI=', 'base64');
    const priv = createPrivateKey({
      key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
      format: 'der',
      type: 'pkcs8',
    });
    const dnskey = dnskeyRdata(
      257,
      15,
      Buffer.from('l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=', 'base64'),
    );
    expect(keyTag(dnskey)).toBe(3613);
    expect(hex(dsRdata(wireNameFromText('example.com').wire, dnskey))).toBe(
      `0e1d0f02${'3aa5ab37efce57f737fc1627013fee07bdf241bd10f3b1964ab55c78e79a304b'}`,
    );
    const pub = publicKeyFromDnskey(dnskey);
    const msg = Buffer.from('check');
    expect(verify(null, msg, pub, sign(null, msg, priv))).toBe(true);
  });

  it('generates KSKs and ZSKs for algorithms 13 and 15 whose private and public halves match', () => {
    for (const algorithm of [13, 15] as const) {
      for (const role of ['ksk', 'zsk'] as const) {
        const k = generateDnssecKey(algorithm, role);
        expect(k.flags).toBe(role === 'ksk' ? 257 : 256);
        expect(k.dnskey[2]).toBe(3);
        expect(k.dnskey[3]).toBe(algorithm);
        expect(k.dnskey.length).toBe(4 + (algorithm === 13 ? 64 : 32));
        expect(k.keyTag).toBe(keyTag(k.dnskey));
        const priv = createPrivateKey({ key: Buffer.from(k.privateKeyPkcs8), format: 'der', type: 'pkcs8' });
        const msg = Buffer.from('data');
        const sig =
          algorithm === 13
            ? sign('sha256', msg, { key: priv, dsaEncoding: 'ieee-p1363' })
            : sign(null, msg, priv);
        expect(sig.length).toBe(64);
        const pub = publicKeyFromDnskey(k.dnskey);
        const ok =
          algorithm === 13
            ? verify('sha256', msg, { key: pub, dsaEncoding: 'ieee-p1363' }, sig)
            : verify(null, msg, pub, sig);
        expect(ok).toBe(true);
      }
    }
  });
});
