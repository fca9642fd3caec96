/**
 * Finished UDP answers keyed by the query's bytes, so that a repeated question is answered by one
 * copy instead of parse → resolve → encode (the DNS hot path's user-space cost per query).
 *
 * Contract:
 * - The key is the query from byte 2 on (flags, counts, question, OPT): the ID is not part of it and
 *   is patched into the copy; the question name is compared case-insensitively (RFC 4343 §3) and
 *   the client's own spelling is copied into the answer's question, so a 0x20-mixed-case query gets
 *   its case back. An answer's bytes depend on nothing else of the query: owners equal to the query
 *   name are pointers to the question, and every other name comes from the zone.
 * - Only what the handler marks `cacheable` is stored (handle-message.ts): answers from a served
 *   zone over UDP without ECS, COOKIE, DO on a signed zone, a load balancer's steering, transfers
 *   or errors. The outcome (rcode, kind, zone…) is stored with the answer and restored on a hit, so
 *   statistics and RRL (which run after the handler, on the bytes sent) see the same thing.
 * - Invalidation: an answer is valid while its zone's generation and the cache's generation are the
 *   ones it was stored under; the zone store reports every change (ZoneStore.onChange): one zone
 *   changed → that zone's generation moves; the set of zones changed → everything goes.
 * - Memory is bounded: records live in one ring of `bytes` (header, key, answer), overwritten
 *   oldest first; an index of ~bytes/64 slots (hash + ring position) finds them. No objects or
 *   strings per entry; a lookup allocates nothing.
 */

/** What the cache counts, for /metrics (DnsCounters carries these fields). */
export interface AnswerCacheCounters {
  answerCacheHits: number;
  answerCacheMisses: number;
  /** Answers stored. */
  answerCacheStores: number;
  /** The memory bound, bytes (ring and index). */
  answerCacheBoundBytes: number;
}

/** The outcome fields restored on a hit (a structural subset of MessageOutcome). */
export interface CachedOutcome {
  rcode: number;
  qtype: number;
  zoneId: number;
  zoneApex: string;
  kind: OutcomeKind;
  truncated: boolean;
  cookieValid: boolean;
  cacheable: boolean;
}

export type OutcomeKind =
  'positive' | 'nodata' | 'nxdomain' | 'referral' | 'wildcard' | 'error' | 'refused' | 'dropped';

const KINDS: readonly OutcomeKind[] = [
  'positive',
  'nodata',
  'nxdomain',
  'referral',
  'wildcard',
  'error',
  'refused',
  'dropped',
];

/** Default memory bound per handler (one per DNS process or worker). */
export const DEFAULT_ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
/** Smallest bound accepted (below it the cache is pointless). */
export const MIN_ANSWER_CACHE_BYTES = 64 * 1024;
/** Longest query and answer stored (a query past it is answered, not stored). */
export const QUERY_MAX = 512;
export const ANSWER_MAX = 4096;

const HEADER = 12;
/** Record header: Int32 words before the key. */
const W_LENGTHS = 0; // key length | answer length << 16
const W_ZONE_SLOT = 1;
const W_ZONE_GEN = 2;
const W_GEN = 3;
const W_OUTCOME = 4; // rcode | kind << 8 | truncated << 12 | qname end << 16
const W_QTYPE = 5;
const RECORD_HEADER = 24;
/** Index slots probed per lookup (linear probing within a short window). */
const PROBES = 4;
/** Ring bytes per index slot. */
const BYTES_PER_SLOT = 64;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Hash of the key of the query at src[off, off + len) (bytes 2.. with the name lower-cased), and
 * the end of its question name, in `probe`. Returns false when the question cannot be read (no
 * name, compression, overlong): such queries are never stored.
 */
function hashQuery(src: Uint8Array, off: number, len: number, probe: Int32Array): boolean {
  const end = off + len;
  if (len < HEADER + 5 || len > QUERY_MAX) return false;
  let h = FNV_OFFSET ^ len;
  let p = off + 2;
  for (; p < off + HEADER; p++) h = Math.imul(h ^ src[p]!, FNV_PRIME);
  for (;;) {
    if (p >= end) return false;
    const l = src[p]!;
    h = Math.imul(h ^ l, FNV_PRIME);
    p++;
    if (l === 0) break;
    if (l > 63) return false;
    const e = p + l;
    if (e > end) return false;
    for (; p < e; p++) {
      const c = src[p]!;
      h = Math.imul(h ^ (c >= 0x41 && c <= 0x5a ? c | 0x20 : c), FNV_PRIME);
    }
  }
  probe[1] = p - off;
  for (; p < end; p++) h = Math.imul(h ^ src[p]!, FNV_PRIME);
  probe[0] = h | 0;
  return true;
}

function lower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

export class AnswerCache {
  private readonly ring: Uint8Array;
  private readonly words: Int32Array;
  private readonly ringSize: number;
  /** Absolute bytes written into the ring so far (a record at p is intact while head - p <= ringSize). */
  private head = 0;
  private readonly mask: number;
  private readonly hashes: Int32Array;
  /** Absolute ring position + 1 of each slot's record; 0 = empty. */
  private readonly positions: Float64Array;
  private generation = 0;
  private readonly slotOfZone = new Map<number, number>();
  private zoneGens = new Int32Array(16);
  private zoneIds = new Int32Array(16);
  private zoneApexes: string[] = [];
  /** [hash, qname end] of the query being looked up or stored. */
  private readonly probe = new Int32Array(2);

  constructor(
    bytes: number,
    private readonly counters: AnswerCacheCounters,
  ) {
    const total = Math.max(MIN_ANSWER_CACHE_BYTES, Math.floor(bytes));
    let slots = 1;
    while (slots * 2 * BYTES_PER_SLOT <= total) slots *= 2;
    // Index: 12 bytes a slot; the ring gets the rest, 4-byte aligned.
    this.ringSize = (total - slots * 12) & ~3;
    this.ring = new Uint8Array(this.ringSize);
    this.words = new Int32Array(this.ring.buffer);
    this.mask = slots - 1;
    this.hashes = new Int32Array(slots);
    this.positions = new Float64Array(slots);
    counters.answerCacheBoundBytes += this.ringSize + slots * 12;
  }

  /** Forgets every answer of one zone (its snapshot changed). */
  invalidateZone(zoneId: number): void {
    const slot = this.slotOfZone.get(zoneId);
    if (slot !== undefined) this.zoneGens[slot] = (this.zoneGens[slot]! + 1) | 0;
  }

  /** Forgets every answer (the set of zones changed: a name may now belong to another zone). */
  invalidateAll(): void {
    this.generation = (this.generation + 1) | 0;
  }

  /**
   * Writes the stored answer to the query at src[off, off + len) into dst at dstOff and fills `out`;
   * returns its length, or -1 (not stored, or stale).
   */
  answer(
    src: Uint8Array,
    off: number,
    len: number,
    dst: Uint8Array,
    dstOff: number,
    out: CachedOutcome,
  ): number {
    const probe = this.probe;
    if (!hashQuery(src, off, len, probe)) {
      this.counters.answerCacheMisses++;
      return -1;
    }
    const at = this.find(src, off, len, probe[0]!);
    if (at < 0) {
      this.counters.answerCacheMisses++;
      return -1;
    }
    const words = this.words;
    const w = at >> 2;
    const zoneSlot = words[w + W_ZONE_SLOT]!;
    if (words[w + W_GEN] !== this.generation || words[w + W_ZONE_GEN] !== this.zoneGens[zoneSlot]) {
      this.counters.answerCacheMisses++;
      return -1;
    }
    const ring = this.ring;
    const answerLen = words[w + W_LENGTHS]! >>> 16;
    const from = at + RECORD_HEADER + len - 2;
    for (let i = 0; i < answerLen; i++) dst[dstOff + i] = ring[from + i]!;
    // The client's ID and its spelling of the name (the key matched it case-insensitively).
    dst[dstOff] = src[off]!;
    dst[dstOff + 1] = src[off + 1]!;
    const qnameEnd = probe[1]!;
    for (let i = HEADER; i < qnameEnd; i++) dst[dstOff + i] = src[off + i]!;
    const o = words[w + W_OUTCOME]!;
    out.rcode = o & 0xff;
    out.kind = KINDS[(o >>> 8) & 0xf]!;
    out.truncated = ((o >>> 12) & 1) === 1;
    out.qtype = words[w + W_QTYPE]!;
    out.zoneId = this.zoneIds[zoneSlot]!;
    out.zoneApex = this.zoneApexes[zoneSlot]!;
    out.cookieValid = false;
    out.cacheable = true;
    this.counters.answerCacheHits++;
    return answerLen;
  }

  /** Ring offset of the record whose key equals the query's, or -1. */
  private find(src: Uint8Array, off: number, len: number, hash: number): number {
    const keyLen = len - 2;
    for (let k = 0; k < PROBES; k++) {
      const s = (hash + k) & this.mask;
      const pos = this.positions[s]!;
      if (pos === 0 || this.hashes[s] !== hash) continue;
      const abs = pos - 1;
      if (this.head - abs > this.ringSize) continue;
      const at = abs % this.ringSize;
      if ((this.words[at >> 2]! & 0xffff) !== keyLen) continue;
      if (this.keyEquals(src, off, len, at + RECORD_HEADER)) return at;
    }
    return -1;
  }

  /** Stored key (bytes 2.. of the query, name lower-cased) against the query, name compared case-insensitively. */
  private keyEquals(src: Uint8Array, off: number, len: number, keyAt: number): boolean {
    const ring = this.ring;
    const qnameEnd = this.probe[1]!;
    let i = 2;
    for (; i < HEADER; i++) if (ring[keyAt + i - 2] !== src[off + i]) return false;
    for (; i < qnameEnd; i++) if (ring[keyAt + i - 2] !== lower(src[off + i]!)) return false;
    for (; i < len; i++) if (ring[keyAt + i - 2] !== src[off + i]) return false;
    return true;
  }

  /**
   * Stores the answer in ans[ansOff, ansOff + ansLen) to the query at src[off, off + len), with
   * the outcome `out` (which must be marked cacheable) of zone `out.zoneId`.
   */
  store(
    src: Uint8Array,
    off: number,
    len: number,
    ans: Uint8Array,
    ansOff: number,
    ansLen: number,
    out: CachedOutcome,
  ): void {
    if (!out.cacheable || out.zoneId < 0 || ansLen > ANSWER_MAX || ansLen < HEADER) return;
    const probe = this.probe;
    if (!hashQuery(src, off, len, probe)) return;
    const hash = probe[0]!;
    const qnameEnd = probe[1]!;
    const size = (RECORD_HEADER + len - 2 + ansLen + 3) & ~3;
    if (size > this.ringSize) return;
    // Reuse the slot holding this key or a dead one; else take over the first probed.
    let slot = hash & this.mask;
    for (let k = 0; k < PROBES; k++) {
      const s = (hash + k) & this.mask;
      const pos = this.positions[s]!;
      if (pos === 0 || this.head - (pos - 1) > this.ringSize || this.hashes[s] === hash) {
        slot = s;
        break;
      }
    }
    let at = this.head % this.ringSize;
    if (at + size > this.ringSize) {
      this.head += this.ringSize - at;
      at = 0;
    }
    const abs = this.head;
    this.head += size;
    const zoneSlot = this.zoneSlot(out.zoneId, out.zoneApex);
    const words = this.words;
    const w = at >> 2;
    words[w + W_LENGTHS] = (len - 2) | (ansLen << 16);
    words[w + W_ZONE_SLOT] = zoneSlot;
    words[w + W_ZONE_GEN] = this.zoneGens[zoneSlot]!;
    words[w + W_GEN] = this.generation;
    words[w + W_OUTCOME] =
      (out.rcode & 0xff) |
      (KINDS.indexOf(out.kind) << 8) |
      ((out.truncated ? 1 : 0) << 12) |
      (qnameEnd << 16);
    words[w + W_QTYPE] = out.qtype;
    const ring = this.ring;
    let p = at + RECORD_HEADER;
    for (let i = 2; i < len; i++) {
      const c = src[off + i]!;
      ring[p++] = i >= HEADER && i < qnameEnd ? lower(c) : c;
    }
    for (let i = 0; i < ansLen; i++) ring[p + i] = ans[ansOff + i]!;
    this.hashes[slot] = hash;
    this.positions[slot] = abs + 1;
    this.counters.answerCacheStores++;
  }

  private zoneSlot(zoneId: number, apex: string): number {
    const known = this.slotOfZone.get(zoneId);
    if (known !== undefined) {
      this.zoneApexes[known] = apex;
      return known;
    }
    const slot = this.slotOfZone.size;
    if (slot >= this.zoneGens.length) {
      const gens = new Int32Array(slot * 2);
      gens.set(this.zoneGens);
      this.zoneGens = gens;
      const ids = new Int32Array(slot * 2);
      ids.set(this.zoneIds);
      this.zoneIds = ids;
    }
    this.slotOfZone.set(zoneId, slot);
    this.zoneIds[slot] = zoneId;
    this.zoneApexes[slot] = apex;
    return slot;
  }
}

/** Counters of a cache nobody reads (tests, tools). */
export function createAnswerCacheCounters(): AnswerCacheCounters {
  return { answerCacheHits: 0, answerCacheMisses: 0, answerCacheStores: 0, answerCacheBoundBytes: 0 };
}
