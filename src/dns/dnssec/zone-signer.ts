/**
 * Online signing of one zone's RRsets (RFC 4035 §2.2, RFC 4470 §2): the KSK signs DNSKEY, CDS and
 * CDNSKEY, the ZSK everything else. Validity: inception one hour back (clock skew, RFC 6781
 * §4.4.2.2), expiration 7 days ahead plus up to 7 days of jitter so re-signing spreads out; a
 * cached signature is replaced once less than half the minimum validity remains.
 */
import { createHash, createPrivateKey, randomInt } from 'node:crypto';
import type { ZoneDnssec } from './dnssec-config.ts';
import { signRRset, type RRsigKey, type SignatureWindow } from './rrsig-signer.ts';
import { SignatureCache, signatureCacheKey } from './signature-cache.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

const HOUR_S = 3600;
const DAY_S = 86_400;
export const SIGNATURE_INCEPTION_BACKDATE_S = HOUR_S;
export const SIGNATURE_VALIDITY_MIN_S = 7 * DAY_S;
export const SIGNATURE_VALIDITY_JITTER_S = 7 * DAY_S;
/** Longest validity a signature can have: keys are withdrawn only after this (key-schedule). */
export const SIGNATURE_VALIDITY_MAX_S = SIGNATURE_VALIDITY_MIN_S + SIGNATURE_VALIDITY_JITTER_S;
const REFRESH_REMAINING_S = SIGNATURE_VALIDITY_MIN_S / 2;

export interface SignerOptions {
  /** Milliseconds since the epoch; the data plane's clock. */
  readonly now?: () => number;
  /** Shared between the zones of a process so a zone reload keeps its signatures. */
  readonly cache?: SignatureCache;
  /** Jitter in seconds, 0 ≤ j < SIGNATURE_VALIDITY_JITTER_S (tests pin it). */
  readonly jitter?: () => number;
}

/** What the object fast path holds for one RRset. */
export interface ObjectEntry {
  readonly ownerKey: string;
  /** The caller's encoding of the RRSIG (see signedObject). */
  readonly signed: unknown;
  /** Milliseconds since the epoch from which the signature is refreshed (a number compare per use). */
  readonly refreshAtMs: number;
}

type SignerKey = RRsigKey & {
  /** Identifies the key in cache keys (a key tag alone may repeat across generations). */
  readonly id: string;
};

export class ZoneSigner {
  readonly ksk: SignerKey;
  readonly zsk: SignerKey;
  private readonly now: () => number;
  private readonly cache: SignatureCache;
  private readonly jitter: () => number;
  /**
   * Fast path for RRsets that are immutable objects (the snapshot's, wildcard sources, compiled
   * load-balancer answers): the encoded RRSIG RRset found by identity, no content key per query.
   */
  private readonly byObject = new WeakMap<object, ObjectEntry>();
  constructor(
    apexKey: string,
    readonly material: ZoneDnssec,
    options: SignerOptions = {},
  ) {
    const key = (k: ZoneDnssec['ksk']): SignerKey => ({
      id: `${k.keyTag}/${createHash('sha256').update(k.privateKeyPkcs8).digest('hex').slice(0, 16)}`,
      algorithm: k.algorithm,
      keyTag: k.keyTag,
      privateKey: createPrivateKey({ key: Buffer.from(k.privateKeyPkcs8), format: 'der', type: 'pkcs8' }),
      signerKey: apexKey,
    });
    this.ksk = key(material.ksk);
    this.zsk = key(material.zsk);
    this.now = options.now ?? Date.now;
    this.cache = options.cache ?? new SignatureCache();
    this.jitter = options.jitter ?? (() => randomInt(SIGNATURE_VALIDITY_JITTER_S));
  }

  get nsecTtl(): number {
    return this.material.nsecTtl;
  }

  /** The key that signs RRsets of `type`. */
  keyFor(type: number): SignerKey {
    return type === RR_TYPE.DNSKEY || type === RR_TYPE.CDS || type === RR_TYPE.CDNSKEY ? this.ksk : this.zsk;
  }

  /**
   * As sign(), remembered per RRset object (`rrset` must be immutable: the snapshot's, or a
   * compiled load-balancer answer) in the form `encode` gives it (the encoded RRSIG RRset), so a
   * warm answer costs one WeakMap lookup and a number compare. Refreshed like the content cache.
   */
  signedObject<T>(
    rrset: { readonly type: number; readonly ttl: number; readonly rdatas: readonly Uint8Array[] },
    ownerKey: string,
    encode: (rrsig: Uint8Array, ttl: number) => T,
  ): T {
    return this.signedObjectEntry(rrset, ownerKey, encode).signed as T;
  }

  /**
   * As signedObject, with the time from which the signature is refreshed: a caller that keeps what
   * it builds from the encoding may use it until then without asking again.
   */
  signedObjectEntry<T>(
    rrset: { readonly type: number; readonly ttl: number; readonly rdatas: readonly Uint8Array[] },
    ownerKey: string,
    encode: (rrsig: Uint8Array, ttl: number) => T,
  ): ObjectEntry {
    const nowMs = this.now();
    const hit = this.byObject.get(rrset);
    if (hit !== undefined && nowMs < hit.refreshAtMs && hit.ownerKey === ownerKey) return hit;
    const rrsig = this.sign(ownerKey, rrset.type, rrset.ttl, rrset.rdatas);
    const expiration = Buffer.from(rrsig.buffer, rrsig.byteOffset, rrsig.length).readUInt32BE(8);
    const signed = encode(rrsig, rrset.ttl);
    const refreshAtMs = (expiration - REFRESH_REMAINING_S) * 1000;
    const entry: ObjectEntry = { ownerKey, signed, refreshAtMs };
    this.byObject.set(rrset, entry);
    return entry;
  }

  /** Milliseconds since the epoch by the signer's clock (one reading for a whole answer). */
  nowMs(): number {
    return this.now();
  }

  /**
   * The encoding signedObject() stored for `rrset` when it is still fresh at `nowMs` and was signed
   * as owned by `ownerKey`; otherwise undefined (the caller then takes the full path). One WeakMap
   * lookup, no signing.
   */
  cachedObject<T>(rrset: object, ownerKey: string, nowMs: number): T | undefined {
    const hit = this.byObject.get(rrset);
    return hit !== undefined && nowMs < hit.refreshAtMs && hit.ownerKey === ownerKey
      ? (hit.signed as T)
      : undefined;
  }

  /**
   * RRSIG RDATA over the RRset (owner key: the wildcard for a wildcard expansion, see RRsetToSign),
   * from the cache when it holds a fresh one.
   */
  sign(ownerKey: string, type: number, ttl: number, rdatas: readonly Uint8Array[]): Uint8Array {
    const key = this.keyFor(type);
    const nowS = Math.floor(this.now() / 1000);
    const cacheKey = signatureCacheKey(ownerKey, type, ttl, rdatas, key.id);
    const cached = this.cache.get(cacheKey, nowS);
    if (cached !== null) return cached;
    const window: SignatureWindow = {
      inception: nowS - SIGNATURE_INCEPTION_BACKDATE_S,
      expiration: nowS + SIGNATURE_VALIDITY_MIN_S + this.jitter(),
    };
    const rrsig = signRRset({ ownerKey, type, ttl, rdatas }, key, window);
    this.cache.set(cacheKey, rrsig, window.expiration - REFRESH_REMAINING_S);
    return rrsig;
  }
}
