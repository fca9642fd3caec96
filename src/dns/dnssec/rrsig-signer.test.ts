import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyOfText } from '../wire/wire-name.ts';
import { canonicalRdata, canonicalRdatas } from './canonical-rrset.ts';
import { compareCanonical, rrsigLabels } from './canonical-name.ts';
import { dnskeyRdata, generateDnssecKey, publicKeyFromDnskey } from './dnssec-key.ts';
import { signRRset, verifyRRsig, type RRsigKey } from './rrsig-signer.ts';

const k = keyOfText;
const mx = (pref: number, name: string): Uint8Array =>
  Uint8Array.from([pref >> 8, pref & 0xff, ...Buffer.from(`${k(name)}\0`, 'latin1')]);

describe('RRSIG signing', () => {
  it('reproduces the RFC 8080 §6.1 Ed25519 RRSIG over example.com MX (deterministic EdDSA)', () => {
    const seed = Buffer.from('ODIyNjAzODQ2MjgwODAxMjI2NDUxOTAyMDQxNDIyNjI=', 'base64');
    const key: RRsigKey = {
      algorithm: 15,
      keyTag: 3613,
      privateKey: createPrivateKey({
        key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
        format: 'der',
        type: 'pkcs8',
      }),
      signerKey: k('example.com'),
    };
    const rrset = { ownerKey: k('example.com'), type: 15, ttl: 3600, rdatas: [mx(10, 'mail.example.com')] };
    const rrsig = signRRset(rrset, key, { inception: 1438207200, expiration: 1440021600 });
    expect(Buffer.from(rrsig.subarray(rrsig.length - 64)).toString('base64')).toBe(
      'oL9krJun7xfBOIWcGHi7mag5/hdZrKWw15jPGrHpjQeRAvTdszaPD+QLs3fx8A4M3e23mRZ9VrbpMngwcrqNAg==',
    );
    const dnskey = dnskeyRdata(
      257,
      15,
      Buffer.from('l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=', 'base64'),
    );
    expect(verifyRRsig(rrsig, rrset, publicKeyFromDnskey(dnskey))).toBe(true);
  });

  it('signs with ECDSA P-256 in r|s form; the signature does not depend on RDATA order or name case', () => {
    const g = generateDnssecKey(13, 'zsk');
    const key: RRsigKey = {
      algorithm: 13,
      keyTag: g.keyTag,
      privateKey: createPrivateKey({ key: Buffer.from(g.privateKeyPkcs8), format: 'der', type: 'pkcs8' }),
      signerKey: k('example.net'),
    };
    const a = [mx(20, 'B.example.net'), mx(10, 'a.example.net')];
    const b = [mx(10, 'A.EXAMPLE.net'), mx(20, 'b.example.net'), mx(10, 'a.example.net')];
    const rrsig = signRRset({ ownerKey: k('example.net'), type: 15, ttl: 300, rdatas: a }, key, {
      inception: 1,
      expiration: 2,
    });
    expect(rrsig.length).toBe(18 + 13 + 64);
    expect(rrsig[3]).toBe(2);
    const pub = publicKeyFromDnskey(g.dnskey);
    expect(verifyRRsig(rrsig, { ownerKey: k('example.net'), type: 15, ttl: 300, rdatas: b }, pub)).toBe(true);
    expect(verifyRRsig(rrsig, { ownerKey: k('example.net'), type: 15, ttl: 301, rdatas: b }, pub)).toBe(
      false,
    );
    expect(verifyRRsig(rrsig, { ownerKey: k('www.example.net'), type: 15, ttl: 300, rdatas: b }, pub)).toBe(
      false,
    );
  });

  it('counts labels without a leading wildcard (RFC 4034 §3.1.3)', () => {
    expect(rrsigLabels(k('*.a.example.com'))).toBe(3);
    expect(rrsigLabels(k('a.example.com'))).toBe(3);
    expect(rrsigLabels('')).toBe(0);
  });

  it('lower-cases names in RDATA of the RFC 4034 §6.2 types only, and sorts RDATA (§6.3)', () => {
    const cname = Uint8Array.from(Buffer.from(`${'\x03WWW\x07Example\x03com'}\0`, 'latin1'));
    expect(Buffer.from(canonicalRdata(5, cname)).toString('latin1')).toBe('\x03www\x07example\x03com\0');
    const txt = Uint8Array.from(Buffer.from('\x03ABC', 'latin1'));
    expect(canonicalRdata(16, txt)).toBe(txt);
    const srv = Uint8Array.from([0, 1, 0, 2, 0, 3, 1, 0x41, 0]);
    expect([...canonicalRdata(33, srv)]).toEqual([0, 1, 0, 2, 0, 3, 1, 0x61, 0]);
    const sorted = canonicalRdatas(1, [
      Uint8Array.of(10, 0, 0, 2),
      Uint8Array.of(10, 0, 0, 1),
      Uint8Array.of(10, 0, 0, 2),
    ]);
    expect(sorted.map((r) => r[3])).toEqual([1, 2]);
  });

  it('orders names canonically (RFC 4034 §6.1 example)', () => {
    const ordered = [
      'example',
      'a.example',
      'yljkjljk.a.example',
      'Z.a.example',
      'zABC.a.EXAMPLE',
      'z.example',
      '\\001.z.example',
      '*.z.example',
      '\\200.z.example',
    ];
    const keys = ordered.map(k);
    const shuffled = [...keys].reverse().sort(compareCanonical);
    expect(shuffled).toEqual(keys);
  });
});
