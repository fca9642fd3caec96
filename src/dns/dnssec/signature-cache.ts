/**
 * A bounded least-recently-used cache of RRSIG RDATA, keyed by what was signed (owner, type, TTL,
 * RDATA set, signing key), so a hot answer — static or synthesized by load balancing — is signed once
 * and not on every query. An entry is used until its refresh time, well before the signature
 * expires, then signed again (RFC 4641bis/RFC 6781 §4.4.2: re-sign ahead of expiration).
 */
import { createHash } from 'node:crypto';

/** Above this many RDATA octets the key holds a SHA-256 of them instead of the octets. */
const INLINE_RDATA_MAX = 512;

export const SIGNATURE_CACHE_DEFAULT_SIZE = 50_000;

interface Entry {
  readonly rrsig: Uint8Array;
  /** Seconds since the epoch after which the entry is not used. */
  readonly refreshAt: number;
}

/**
 * The cache key of an RRset's signature: order-independent in the RDATA (an RRset is a set, RFC
 * 2181 §5; a rotated load-balanced answer is the same RRset).
 */
export function signatureCacheKey(
  ownerKey: string,
  type: number,
  ttl: number,
  rdatas: readonly Uint8Array[],
  keyId: string,
): string {
  let total = 0;
  for (const r of rdatas) total += r.length;
  const parts = rdatas.map((r) => Buffer.from(r.buffer, r.byteOffset, r.length).toString('latin1'));
  parts.sort();
  let body = parts.map((p) => `${p.length}:${p}`).join('');
  if (total > INLINE_RDATA_MAX) body = createHash('sha256').update(body, 'latin1').digest('base64');
  return `${ownerKey}|${type}|${ttl}|${keyId}|${body}`;
}

export class SignatureCache {
  private readonly entries = new Map<string, Entry>();
  hits = 0;
  misses = 0;

  constructor(readonly maxEntries: number = SIGNATURE_CACHE_DEFAULT_SIZE) {}

  get size(): number {
    return this.entries.size;
  }

  /** The cached RRSIG when present and not due for refresh at `nowS`. */
  get(key: string, nowS: number): Uint8Array | null {
    const e = this.entries.get(key);
    if (e === undefined || nowS >= e.refreshAt) {
      if (e !== undefined) this.entries.delete(key);
      this.misses++;
      return null;
    }
    // Re-insert: Map iteration order is insertion order, so the first key is the least recent.
    this.entries.delete(key);
    this.entries.set(key, e);
    this.hits++;
    return e.rrsig;
  }

  set(key: string, rrsig: Uint8Array, refreshAt: number): void {
    this.entries.delete(key);
    this.entries.set(key, { rrsig, refreshAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
