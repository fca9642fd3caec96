/**
 * RRSIG creation and verification (RFC 4034 §3.1.8.1, RFC 4035 §2.2 and §5.3): the signed data is
 * the RRSIG RDATA without its signature followed by the RRset in canonical form (canonical-rrset.ts)
 * with the original TTL. ECDSA signatures are r | s, 32 octets each (RFC 6605 §4); Ed25519 is pure
 * EdDSA over the signed data (RFC 8080 §4).
 */
import { sign, verify, type KeyObject } from 'node:crypto';
import type { DnssecAlgorithm } from './dnssec-config.ts';
import { canonicalRdatas } from './canonical-rrset.ts';
import { rrsigLabels, wireOfKey } from './canonical-name.ts';

const CLASS_IN = 1;
/** Type covered, algorithm, labels, original TTL, expiration, inception, key tag. */
const RRSIG_FIXED = 18;

export interface RRsigKey {
  readonly algorithm: DnssecAlgorithm;
  readonly keyTag: number;
  readonly privateKey: KeyObject;
  /** Key of the zone apex (the signer's name, RFC 4035 §2.2). */
  readonly signerKey: string;
}

export interface RRsetToSign {
  /**
   * Key of the owner as stored in the zone: for a wildcard expansion the wildcard ("*.<encloser>"),
   * so one signature serves every expansion (RFC 4035 §2.2, the Labels field then excludes "*").
   */
  readonly ownerKey: string;
  readonly type: number;
  /** The original TTL (RFC 4034 §3.1.4). */
  readonly ttl: number;
  readonly rdatas: readonly Uint8Array[];
}

/** Seconds since the epoch, as the 32-bit serial-number times of RFC 4034 §3.1.5. */
export interface SignatureWindow {
  readonly inception: number;
  readonly expiration: number;
}

function rrsigHead(rrset: RRsetToSign, key: RRsigKey, window: SignatureWindow): Uint8Array {
  const signer = wireOfKey(key.signerKey);
  const b = Buffer.alloc(RRSIG_FIXED + signer.length);
  b.writeUInt16BE(rrset.type, 0);
  b[2] = key.algorithm;
  b[3] = rrsigLabels(rrset.ownerKey);
  b.writeUInt32BE(rrset.ttl >>> 0, 4);
  b.writeUInt32BE(window.expiration >>> 0, 8);
  b.writeUInt32BE(window.inception >>> 0, 12);
  b.writeUInt16BE(key.keyTag, 16);
  b.set(signer, RRSIG_FIXED);
  return b;
}

/** RFC 4034 §3.1.8.1: RRSIG_RDATA | RR(1) | RR(2)... in canonical order. */
function signedData(head: Uint8Array, rrset: RRsetToSign): Buffer {
  const owner = wireOfKey(rrset.ownerKey);
  const parts: Uint8Array[] = [head];
  for (const rd of canonicalRdatas(rrset.type, rrset.rdatas)) {
    const fixed = Buffer.alloc(10);
    fixed.writeUInt16BE(rrset.type, 0);
    fixed.writeUInt16BE(CLASS_IN, 2);
    fixed.writeUInt32BE(rrset.ttl >>> 0, 4);
    fixed.writeUInt16BE(rd.length, 8);
    parts.push(owner, fixed, rd);
  }
  return Buffer.concat(parts);
}

function signBytes(algorithm: DnssecAlgorithm, key: KeyObject, data: Buffer): Buffer {
  return algorithm === 13 ? sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' }) : sign(null, data, key);
}

/** The RRSIG RDATA over `rrset`. */
export function signRRset(rrset: RRsetToSign, key: RRsigKey, window: SignatureWindow): Uint8Array {
  const head = rrsigHead(rrset, key, window);
  const signature = signBytes(key.algorithm, key.privateKey, signedData(head, rrset));
  const out = new Uint8Array(head.length + signature.length);
  out.set(head, 0);
  out.set(signature, head.length);
  return out;
}

/**
 * Checks an RRSIG RDATA against `rrset` and a public key (tests and self-checks; validators do
 * this for real). `rrset.ownerKey` is the name the signature was made for (wildcard included).
 */
export function verifyRRsig(rrsig: Uint8Array, rrset: RRsetToSign, publicKey: KeyObject): boolean {
  let p = RRSIG_FIXED;
  while (rrsig[p] !== 0) p += rrsig[p]! + 1;
  const head = rrsig.subarray(0, p + 1);
  const signature = rrsig.subarray(p + 1);
  const data = signedData(head, rrset);
  const algorithm = rrsig[2];
  return algorithm === 13
    ? verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)
    : verify(null, data, publicKey, signature);
}
