/**
 * DNSSEC key material: key generation, DNSKEY RDATA (RFC 4034 §2.1; public key formats RFC 6605 §4
 * and RFC 8080 §3), key tags (RFC 4034 Appendix B) and DS RDATA with SHA-256 (RFC 4034 §5.1.4,
 * RFC 4509 §2.1).
 */
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { DNSKEY_FLAGS_KSK, DNSKEY_FLAGS_ZSK, type DnssecAlgorithm } from './dnssec-config.ts';

/** RFC 4034 §2.1.2: the protocol field is always 3. */
const DNSKEY_PROTOCOL = 3;
/** RFC 4509 §2.1: digest type 2 = SHA-256. */
export const DS_DIGEST_SHA256 = 2;

export interface GeneratedKey {
  readonly algorithm: DnssecAlgorithm;
  readonly flags: number;
  /** DNSKEY RDATA (flags, protocol, algorithm, public key). */
  readonly dnskey: Uint8Array;
  readonly keyTag: number;
  /** PKCS #8 DER of the private key. */
  readonly privateKeyPkcs8: Uint8Array;
}

/** A new KSK (flags 257) or ZSK (flags 256) for `algorithm`. */
export function generateDnssecKey(algorithm: DnssecAlgorithm, role: 'ksk' | 'zsk'): GeneratedKey {
  const pair =
    algorithm === 13
      ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      : generateKeyPairSync('ed25519');
  const flags = role === 'ksk' ? DNSKEY_FLAGS_KSK : DNSKEY_FLAGS_ZSK;
  const dnskey = dnskeyRdata(flags, algorithm, publicKeyBytes(pair.publicKey, algorithm));
  return {
    algorithm,
    flags,
    dnskey,
    keyTag: keyTag(dnskey),
    privateKeyPkcs8: new Uint8Array(pair.privateKey.export({ format: 'der', type: 'pkcs8' })),
  };
}

/**
 * The DNSKEY public key field: for ECDSA P-256 the 64 octets x | y of the point (RFC 6605 §4), for
 * Ed25519 the 32-octet public key (RFC 8080 §3, RFC 8032 §5.1.5).
 */
export function publicKeyBytes(key: KeyObject, algorithm: DnssecAlgorithm): Uint8Array {
  const jwk = key.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  if (algorithm === 15) return new Uint8Array(x);
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  return new Uint8Array(Buffer.concat([x, y]));
}

/** The public KeyObject of DNSKEY RDATA (for verification). */
export function publicKeyFromDnskey(dnskey: Uint8Array): KeyObject {
  const algorithm = dnskey[3];
  const key = Buffer.from(dnskey.subarray(4));
  if (algorithm === 13 && key.length === 64) {
    return createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: key.subarray(0, 32).toString('base64url'),
        y: key.subarray(32).toString('base64url'),
      },
      format: 'jwk',
    });
  }
  if (algorithm === 15 && key.length === 32) {
    return createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') },
      format: 'jwk',
    });
  }
  throw new Error(`unsupported DNSKEY algorithm ${algorithm}`);
}

export function dnskeyRdata(flags: number, algorithm: number, publicKey: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + publicKey.length);
  out[0] = flags >> 8;
  out[1] = flags & 0xff;
  out[2] = DNSKEY_PROTOCOL;
  out[3] = algorithm;
  out.set(publicKey, 4);
  return out;
}

/** RFC 4034 Appendix B: the 16-bit checksum over the DNSKEY RDATA (algorithm 1 excepted). */
export function keyTag(dnskey: Uint8Array): number {
  let ac = 0;
  for (let i = 0; i < dnskey.length; i++) ac += i & 1 ? dnskey[i]! : dnskey[i]! << 8;
  ac += (ac >> 16) & 0xffff;
  return ac & 0xffff;
}

/**
 * DS RDATA for the DNSKEY owned by `ownerWire` (canonical, lower-case wire form): key tag,
 * algorithm, digest type 2, SHA-256(owner | DNSKEY RDATA) (RFC 4034 §5.1.4, RFC 4509 §2.1).
 */
export function dsRdata(ownerWire: Uint8Array, dnskey: Uint8Array): Uint8Array {
  const digest = createHash('sha256').update(ownerWire).update(dnskey).digest();
  const out = new Uint8Array(4 + digest.length);
  const tag = keyTag(dnskey);
  out[0] = tag >> 8;
  out[1] = tag & 0xff;
  out[2] = dnskey[3]!;
  out[3] = DS_DIGEST_SHA256;
  out.set(digest, 4);
  return out;
}

/**
 * RFC 8078 §4: the CDS and CDNSKEY that ask the parent to remove the DS RRset (turn DNSSEC off):
 * CDS "0 0 0 00" and CDNSKEY "0 3 0 AA==".
 */
export const CDS_DELETE_RDATA: Uint8Array = Uint8Array.of(0, 0, 0, 0, 0);
export const CDNSKEY_DELETE_RDATA: Uint8Array = Uint8Array.of(0, 0, DNSKEY_PROTOCOL, 0, 0);
