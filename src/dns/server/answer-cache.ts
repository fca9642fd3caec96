/**
 * Finished answers keyed by the query's bytes, so that a repeated question is answered by one
 * copy instead of parse → resolve → encode (the DNS hot path's user-space cost per query). One
 * cache per transport (handle-message.ts): a TCP answer is the untruncated one.
 *
 * Contract:
 * - The key is the query with its ID zeroed and its question name lower-cased (RFC 4343 §3): the
 *   client's ID and its own spelling of the name are copied into the stored answer, so a
 *   0x20-mixed-case query gets its case back. An answer's bytes depend on nothing else of the
 *   query: owners equal to the query name are pointers to the question, every other name comes
 *   from the zone.
 * - Only what the handler marks `cacheable` is stored (handle-message.ts): answers from a served
 *   zone without a COOKIE option, no transfer, no error. An ECS option is part of the key like
 *   the rest of the query (its echo is made from it).
 * - Steered answers (A/AAAA at a load balancer) are stored only when their decision is a function
 *   of the query's bytes, the zone's snapshot and the member health (lastDnsDecisionKeepable in
 *   steering/steered-answer.ts): no random draw, and a client location or subnet taken from the
 *   query's ECS option, not the resolver's address. The placement is thus the ECS subnet (or none
 *   when the decision did not read the client). Such a record also keeps the health generation it
 *   was made under (HealthView.generation): a health change makes every steered record stale at
 *   once, static ones stay. A steered hit counts its load-balancer answer as the uncached path
 *   does (LbAnswerCounts.countToken). Steered records live until invalidated or overwritten, not
 *   for the answer's TTL: nothing else they depend on moves with time.
 * - The outcome (rcode, kind, zone…) is stored with the answer and restored on a hit, so statistics
 *   and RRL (which run after the handler, on the bytes sent) see the same thing.
 * - Invalidation: an answer is valid while its zone's generation and the cache's generation are the
 *   ones it was stored under; the zone store reports every change (ZoneStore.onChange): one zone
 *   changed → that zone's generation moves (a load balancer's or pool's change is a new snapshot of
 *   its zone); the set of zones changed → everything goes. An answer with signatures (DO at a
 *   signed zone, outcome `signed`: its RRSIGs and proofs, positive, NODATA, wildcard or referral
 *   alike) is also used SIGNED_ANSWER_LIFETIME_MS at most, far inside the signatures' refresh
 *   margin, as the signed denial cache (denial-answer-cache.ts): only such a hit reads the clock.
 * - Memory is bounded: records (header, key, answer, word aligned) live in one ring of `bytes`
 *   less the index, overwritten oldest first; the index has a power of two of 16-byte slots, one
 *   per 128 to 256 bytes of bound. No objects or strings per entry; a lookup allocates nothing,
 *   and works a word at a time when the query and the send slot are word aligned (a batch's
 *   slots are).
 * - Admission: a question is stored the second time it misses, not the first (a 16-bit
 *   fingerprint of a first miss's hash is kept, as TinyLFU's doorkeeper), so a flood of unique
 *   names (random subdomains) neither pays for storing nor pushes the answers that repeat out of
 *   the ring.
 * - A miss touches no index line when it can be told cheaply: a bit per hash is set in a
 *   "present" filter for every record stored in the ring's current lap, another holds the previous
 *   lap (every record older than that is overwritten), and a question whose bit is clear in both is
 *   not stored. Both filters' bits and the doorkeeper's fingerprints for a hash share one 64-byte
 *   block (4 bytes per index slot, against the index's 16), so a unique-name flood costs a hash
 *   and one cache line per query, read by the lookup and written by the store after it. A filter
 *   only ever says "maybe": a set bit falls through to the index.
 * - The cache is used while it pays: a lookup that misses costs a hash and a cache line, a hit
 *   saves a whole answer (about ten times more), so over every WINDOW_LOOKUPS lookups the hit
 *   count is checked. Below one hit in HIT_SHARE_MIN_INVERSE lookups (a flood of unique or rarely
 *   repeated names; set below break-even, so a cache that helps a little is kept), only one query
 *   in SAMPLE_EVERY is looked up (and stored) until a window of those hits again. The others are
 *   answered as without a cache (counted as skipped).
 */

import { WordView } from '../wire/byte-copy.ts';

/** What the cache counts, for /metrics (DnsCounters carries these fields). */
export interface AnswerCacheCounters {
  answerCacheHits: number;
  answerCacheMisses: number;
  /** Not looked up: the cache was not paying (see "used while it pays" above). */
  answerCacheSkips: number;
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
  /** The answer carries signatures: kept SIGNED_ANSWER_LIFETIME_MS at most. */
  signed: boolean;
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

/** How long an answer with signatures is used (see the file comment). */
export const SIGNED_ANSWER_LIFETIME_MS = 60_000;

const HEADER = 12;
/** Record header: Int32 words before the key. */
const W_LENGTHS = 0; // key length | answer length << 16
const W_ZONE_SLOT = 1;
const W_ZONE_GEN = 2;
const W_GEN = 3;
const W_OUTCOME = 4; // rcode | kind << 8 | truncated << 12 | signed << 13 | qname end << 16
const W_QTYPE = 5;
/** Signed answers: seconds since the cache's start (see nowS) from which it is stale; else 0. */
const W_EXPIRES = 6;
/** STATIC_ANSWER, STEERED_UNCOUNTED or a steered answer's count token (>= 0). */
const W_STEERED = 7;
/** Health generation a steered answer was made under. */
const W_HEALTH_GEN = 8;
const RECORD_HEADER_WORDS = 9;

/** store()'s `steered` for an answer from the zone's records. */
export const STATIC_ANSWER = -1;
/** store()'s `steered` for a steered answer whose hits are not counted (no LbAnswerCounts). */
export const STEERED_UNCOUNTED = -2;

/** What steered records depend on beyond the snapshot: health, and where their hits are counted. */
export interface SteeredAnswerSources {
  readonly health: { readonly generation?: number };
  readonly lbAnswers: { countToken(token: number): void } | null;
}
/**
 * Index slot (16 bytes, four to a cache line): hash, ring offset in words, absolute position in
 * words (mod 2^32), and a word left free (keeps slots aligned to the line).
 */
const SLOT_INTS = 4;
/** Index slots probed per lookup (linear probing within a short window). */
const PROBES = 4;
/** Ring bytes per index slot. */
const BYTES_PER_SLOT = 64;
/** Index bytes per slot. */
const INDEX_BYTES_PER_SLOT = 4 * SLOT_INTS;
/**
 * Miss filter blocks: one 64-byte cache line per 16 index slots, holding 64 "present" bits of the
 * current lap (16-bit words 0-3), 64 of the previous lap (4-7) and 24 doorkeeper fingerprints
 * (8-31): a miss and the store() after it touch this one line.
 */
const SLOTS_PER_BLOCK = 16;
const BLOCK_U16 = 32;
const BLOCK_I32 = 16;
const FINGERPRINTS_AT = 8;
const FINGERPRINTS = 24;
const FILTER_BYTES_PER_SLOT = (BLOCK_U16 * 2) / SLOTS_PER_BLOCK;
/**
 * Words written between index resets: absolute positions are kept mod 2^32 words, exact while
 * every live slot was written less than 2^31 words ago; the index is cleared every 2^30 words.
 */
const RESET_WORDS = 2 ** 30;

/** Lookups over which the cache's hit count is judged. */
export const WINDOW_LOOKUPS = 16_384;
/** Below one hit in this many lookups of a window, the cache is not paying. */
export const HIT_SHARE_MIN_INVERSE = 16;
/** While the cache is not paying, one query in this many is looked up. */
export const SAMPLE_EVERY = 16;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Multipliers taking the filters' and the doorkeeper's bits from the hash's high end (the index uses its low bits). */
const PRESENT_MIX = 0x9e3779b1 | 0;
const SEEN_MIX = 0x85ebca6b | 0;

export class AnswerCache {
  private readonly ring: Uint8Array;
  private readonly words: Int32Array;
  /** Ring size in words. */
  private readonly ringWords: number;
  /** Next write position in the ring, words. */
  private headAt = 0;
  /** Absolute words written (mod 2^32): a record written at absolute a is intact while head - a <= ringWords. */
  private headAbs = 0;
  private sinceReset = 0;
  private readonly mask: number;
  private readonly slots: Int32Array;
  /**
   * Miss filter blocks (see SLOTS_PER_BLOCK), as 32-bit words for the present bits and 16-bit
   * words for the fingerprints; a question's block is its mixed hash's top bits.
   */
  private readonly filter32: Int32Array;
  private readonly filter16: Uint16Array;
  private readonly blockShift: number;
  /** The block of the key last looked up (maybePresent), which store() reuses. */
  private block = 0;
  private generation = 0;
  private readonly slotOfZone = new Map<number, number>();
  private zoneGens = new Int32Array(16);
  private zoneIds = new Int32Array(16);
  private zoneApexes: string[] = [];
  /** The key of the query being looked up or stored (readKey). */
  private readonly key = new Uint8Array(QUERY_MAX + 4);
  private readonly keyWords = new Int32Array(this.key.buffer);
  private keyLen = 0;
  /** Where the key in `key` was read from by the last answer() (store() reuses it), -1: nowhere. */
  private keyOff = -1;
  private keySrc: Uint8Array | null = null;
  private qnameEnd = 0;
  private hash = 0;
  /** Word views of the last source and destination. */
  private readonly srcView = new WordView();
  private readonly dstView = new WordView();
  /** Lookups and hits of the current window; whether only one query in SAMPLE_EVERY is looked up. */
  private windowLookups = 0;
  private windowHits = 0;
  private sampling = false;
  private sinceSample = 0;
  /** The query the last answer() skipped, at skippedSrc[skippedOff] (-1: none): not stored either. */
  private skippedSrc: Uint8Array | null = null;
  private skippedOff = -1;

  /** The clock's reading at construction, ms (expiry times are kept relative to it). */
  private readonly startMs: number;

  /** `now`: the clock of signed answers' expiry, ms (default Date.now). */
  constructor(
    bytes: number,
    private readonly counters: AnswerCacheCounters,
    private readonly now: () => number = Date.now,
    private readonly steeredSources: SteeredAnswerSources | null = null,
  ) {
    this.startMs = now();
    const total = Math.max(MIN_ANSWER_CACHE_BYTES, Math.floor(bytes));
    let slots = 1;
    while (slots * 2 * BYTES_PER_SLOT <= total) slots *= 2;
    const indexBytes = slots * (INDEX_BYTES_PER_SLOT + FILTER_BYTES_PER_SLOT);
    this.ringWords = (total - indexBytes) >> 2;
    this.words = new Int32Array(this.ringWords);
    this.ring = new Uint8Array(this.words.buffer);
    this.mask = slots - 1;
    this.slots = new Int32Array(slots * SLOT_INTS);
    const blocks = slots / SLOTS_PER_BLOCK;
    this.filter32 = new Int32Array(blocks * BLOCK_I32);
    this.filter16 = new Uint16Array(this.filter32.buffer);
    this.blockShift = 32 - Math.log2(blocks);
    this.clearIndex();
    counters.answerCacheBoundBytes += this.ringWords * 4 + indexBytes;
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
   * Reads the key of the query at src[off, off + len) into `key`: the query with its ID zeroed
   * and its question name lower-cased (RFC 4343 §3), zero-padded to the word; then hashes it.
   * Word-wise when the query is word aligned (a batch's receive slots are). False when the
   * question cannot be read (no name, compression, overlong): such queries are never stored.
   */
  private readKey(src: Uint8Array, off: number, len: number): boolean {
    if (len < HEADER + 5 || len > QUERY_MAX) return false;
    const end = off + len;
    let p = off + HEADER;
    for (;;) {
      if (p >= end) return false;
      const l = src[p]!;
      if (l === 0) break;
      if (l > 63) return false;
      p += l + 1;
    }
    const qnameEnd = p + 1 - off;
    this.qnameEnd = qnameEnd;
    this.keyLen = len;
    const key = this.key;
    const kw = this.keyWords;
    const n = (len + 3) >> 2;
    this.srcView.of(src);
    const at = this.srcView.base + off;
    if ((at & 3) === 0) {
      const sw = this.srcView.words;
      const base = at >> 2;
      for (let i = 0; i < n; i++) kw[i] = sw[base + i]!;
    } else {
      for (let i = 0; i < len; i++) key[i] = src[off + i]!;
    }
    for (let i = len; i < n << 2; i++) key[i] = 0;
    key[0] = key[1] = 0;
    // Letters of the name lower-cased four at a time: on each byte's low 7 bits (no carries),
    // 0x20 where 0x41 <= byte <= 0x5a and the high bit is clear; label lengths (< 0x40) stay.
    const whole = qnameEnd >> 2;
    for (let i = HEADER >> 2; i < whole; i++) {
      const w = kw[i]!;
      const h = w & 0x7f7f7f7f;
      kw[i] = w | ((((h + 0x3f3f3f3f) & ~(h + 0x25252525) & ~w & 0x80808080) >>> 2) as number);
    }
    for (let b = whole << 2; b < qnameEnd; b++) {
      const c = key[b]!;
      if (c >= 0x41 && c <= 0x5a) key[b] = c | 0x20;
    }
    let h = FNV_OFFSET ^ len;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ kw[i]!, FNV_PRIME) ^ (h >>> 15);
    this.hash = h | 0;
    return true;
  }

  /** Copies the client's ID and spelling of the question name into the answer at dst[dstOff]. */
  private restoreQuestion(src: Uint8Array, off: number, dst: Uint8Array, dstOff: number): void {
    dst[dstOff] = src[off]!;
    dst[dstOff + 1] = src[off + 1]!;
    const qnameEnd = this.qnameEnd;
    let b = HEADER;
    this.dstView.of(dst);
    const from = this.srcView.base + off;
    const to = this.dstView.base + dstOff;
    if ((from & 3) === 0 && (to & 3) === 0) {
      const sw = this.srcView.words;
      const dw = this.dstView.words;
      const s0 = from >> 2;
      const d0 = to >> 2;
      const whole = qnameEnd >> 2;
      for (let i = HEADER >> 2; i < whole; i++) dw[d0 + i] = sw[s0 + i]!;
      b = whole << 2;
    }
    for (; b < qnameEnd; b++) dst[dstOff + b] = src[off + b]!;
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
    this.keyOff = -1;
    if (this.sampling && ++this.sinceSample < SAMPLE_EVERY) {
      this.skippedSrc = src;
      this.skippedOff = off;
      this.counters.answerCacheSkips++;
      return -1;
    }
    this.sinceSample = 0;
    this.skippedOff = -1;
    if (++this.windowLookups === WINDOW_LOOKUPS) this.judge();
    if (!this.readKey(src, off, len)) {
      this.counters.answerCacheMisses++;
      return -1;
    }
    // A miss is usually followed by store() of the same query: its key is kept.
    this.keyOff = off;
    this.keySrc = src;
    const w = this.maybePresent() ? this.find() : -1;
    if (w < 0) {
      this.counters.answerCacheMisses++;
      return -1;
    }
    const words = this.words;
    const zoneSlot = words[w + W_ZONE_SLOT]!;
    const expires = words[w + W_EXPIRES]!;
    if (
      words[w + W_GEN] !== this.generation ||
      words[w + W_ZONE_GEN] !== this.zoneGens[zoneSlot] ||
      (expires !== 0 && this.nowS() >= expires)
    ) {
      this.counters.answerCacheMisses++;
      return -1;
    }
    const steered = words[w + W_STEERED]!;
    if (steered !== STATIC_ANSWER) {
      const sources = this.steeredSources;
      if (sources === null || words[w + W_HEALTH_GEN] !== sources.health.generation) {
        this.counters.answerCacheMisses++;
        return -1;
      }
      if (steered >= 0) sources.lbAnswers?.countToken(steered);
    }
    const answerLen = words[w + W_LENGTHS]! >>> 16;
    this.copyOut(w + RECORD_HEADER_WORDS + ((this.keyLen + 3) >> 2), answerLen, dst, dstOff);
    // The client's ID and its spelling of the name (the key matched it case-insensitively).
    this.restoreQuestion(src, off, dst, dstOff);
    const o = words[w + W_OUTCOME]!;
    out.rcode = o & 0xff;
    out.kind = KINDS[(o >>> 8) & 0xf]!;
    out.truncated = ((o >>> 12) & 1) === 1;
    out.signed = ((o >>> 13) & 1) === 1;
    out.qtype = words[w + W_QTYPE]!;
    out.zoneId = this.zoneIds[zoneSlot]!;
    out.zoneApex = this.zoneApexes[zoneSlot]!;
    out.cookieValid = false;
    out.cacheable = true;
    this.counters.answerCacheHits++;
    this.windowHits++;
    return answerLen;
  }

  /** Seconds since the cache's start, at least 1 (0 marks an answer that does not expire). */
  private nowS(): number {
    return 1 + Math.floor((this.now() - this.startMs) / 1000);
  }

  /** At the end of a window: sample while the hits were too few to pay for the lookups. */
  private judge(): void {
    this.sampling = this.windowHits * HIT_SHARE_MIN_INVERSE < WINDOW_LOOKUPS;
    this.windowLookups = 0;
    this.windowHits = 0;
  }

  /**
   * Copies `n` bytes of the ring from word `from` to dst at dstOff: a word at a time when dst is
   * word aligned there too (a batch's send slots are), which may write up to 3 bytes past the
   * answer, inside the slot; else byte by byte.
   */
  private copyOut(from: number, n: number, dst: Uint8Array, dstOff: number): void {
    this.dstView.of(dst);
    const to = this.dstView.base + dstOff;
    if ((to & 3) === 0 && dstOff + n + 3 <= dst.length) {
      const d = this.dstView.words;
      const words = this.words;
      const o = to >> 2;
      const count = (n + 3) >> 2;
      for (let i = 0; i < count; i++) d[o + i] = words[from + i]!;
      return;
    }
    const ring = this.ring;
    const at = from << 2;
    for (let i = 0; i < n; i++) dst[dstOff + i] = ring[at + i]!;
  }

  /** False when no record of this lap or the last has the key's hash (then none is in the ring). */
  private maybePresent(): boolean {
    const hash = this.hash;
    const block = Math.imul(hash, PRESENT_MIX) >>> this.blockShift;
    this.block = block;
    // Bit (hash & 63) of the block's current lap (words 0-1) or previous lap (words 2-3).
    const at = block * BLOCK_I32 + ((hash >>> 5) & 1);
    const f = this.filter32;
    return ((f[at]! | f[at + 2]!) & (1 << (hash & 31))) !== 0;
  }

  /** Ring word offset of the record whose key equals `key`, or -1. */
  private find(): number {
    const slots = this.slots;
    const hash = this.hash;
    const keyLen = this.keyLen;
    for (let k = 0; k < PROBES; k++) {
      const s = ((hash + k) & this.mask) * SLOT_INTS;
      if (slots[s] !== hash) continue;
      const w = slots[s + 1]!;
      // Empty (never written), or overwritten since: ((head - at) mod 2^32) beyond the ring.
      if (w < 0 || (this.headAbs - slots[s + 2]!) >>> 0 > this.ringWords) continue;
      if ((this.words[w + W_LENGTHS]! & 0xffff) !== keyLen) continue;
      if (this.keyEquals(w + RECORD_HEADER_WORDS)) return w;
    }
    return -1;
  }

  private keyEquals(at: number): boolean {
    const words = this.words;
    const kw = this.keyWords;
    const n = (this.keyLen + 3) >> 2;
    for (let i = 0; i < n; i++) if (words[at + i] !== kw[i]) return false;
    return true;
  }

  /**
   * Stores the answer in ans[ansOff, ansOff + ansLen) to the query at src[off, off + len), with
   * the outcome `out` (which must be marked cacheable) of zone `out.zoneId`. `steered`:
   * STATIC_ANSWER, or for a steered answer its count token or STEERED_UNCOUNTED.
   */
  store(
    src: Uint8Array,
    off: number,
    len: number,
    ans: Uint8Array,
    ansOff: number,
    ansLen: number,
    out: CachedOutcome,
    steered: number = STATIC_ANSWER,
  ): void {
    if (this.skippedOff >= 0) {
      // The query answer() just skipped: not stored either (a store would read its key).
      const skipped = this.skippedOff === off && this.skippedSrc === src;
      this.skippedOff = -1;
      if (skipped) return;
    }
    if (!out.cacheable || out.zoneId < 0 || ansLen > ANSWER_MAX || ansLen < HEADER) return;
    const healthGen = steered === STATIC_ANSWER ? 0 : this.steeredSources?.health.generation;
    if (healthGen === undefined) return;
    const keyKept = this.keyOff === off && this.keySrc === src && this.keyLen === len;
    this.keyOff = -1;
    if (!keyKept && !this.readKey(src, off, len)) return;
    const hash = this.hash;
    // answer() found the block when it read this key; else (a key read here) find it now.
    const block = keyKept ? this.block : Math.imul(hash, PRESENT_MIX) >>> this.blockShift;
    const mixed = Math.imul(hash, SEEN_MIX);
    const door = block * BLOCK_U16 + FINGERPRINTS_AT + (((mixed & 0xffff) * FINGERPRINTS) >>> 16);
    const print = (mixed >>> 16) | 1;
    if (this.filter16[door] !== print) {
      this.filter16[door] = print;
      return;
    }
    const keyWordCount = (this.keyLen + 3) >> 2;
    const size = RECORD_HEADER_WORDS + keyWordCount + ((ansLen + 3) >> 2);
    if (size > this.ringWords) return;
    // Reuse the slot holding this key or a dead one; else take over the first probed.
    const slots = this.slots;
    let slot = (hash & this.mask) * SLOT_INTS;
    for (let k = 0; k < PROBES; k++) {
      const s = ((hash + k) & this.mask) * SLOT_INTS;
      if (slots[s] === hash || slots[s + 1]! < 0 || (this.headAbs - slots[s + 2]!) >>> 0 > this.ringWords) {
        slot = s;
        break;
      }
    }
    let at = this.headAt;
    if (at + size > this.ringWords) {
      this.advance(this.ringWords - at);
      at = 0;
      // A new lap: the records of the one before last are all overwritten by the end of this one.
      const f = this.filter32;
      for (let b = 0; b < f.length; b += BLOCK_I32) {
        f[b + 2] = f[b]!;
        f[b + 3] = f[b + 1]!;
        f[b] = f[b + 1] = 0;
      }
    }
    const abs = this.headAbs;
    this.advance(size);
    this.headAt = at + size;
    const zoneSlot = this.zoneSlot(out.zoneId, out.zoneApex);
    const words = this.words;
    words[at + W_LENGTHS] = this.keyLen | (ansLen << 16);
    words[at + W_ZONE_SLOT] = zoneSlot;
    words[at + W_ZONE_GEN] = this.zoneGens[zoneSlot]!;
    words[at + W_GEN] = this.generation;
    words[at + W_OUTCOME] =
      (out.rcode & 0xff) |
      (KINDS.indexOf(out.kind) << 8) |
      ((out.truncated ? 1 : 0) << 12) |
      ((out.signed ? 1 : 0) << 13) |
      (this.qnameEnd << 16);
    words[at + W_QTYPE] = out.qtype;
    words[at + W_EXPIRES] = out.signed ? this.nowS() + Math.ceil(SIGNED_ANSWER_LIFETIME_MS / 1000) : 0;
    words[at + W_STEERED] = steered;
    words[at + W_HEALTH_GEN] = healthGen;
    const kw = this.keyWords;
    const keyAt = at + RECORD_HEADER_WORDS;
    for (let i = 0; i < keyWordCount; i++) words[keyAt + i] = kw[i]!;
    const ring = this.ring;
    const p = (keyAt + keyWordCount) << 2;
    for (let i = 0; i < ansLen; i++) ring[p + i] = ans[ansOff + i]!;
    slots[slot] = hash;
    slots[slot + 1] = at;
    slots[slot + 2] = abs;
    this.filter32[block * BLOCK_I32 + ((hash >>> 5) & 1)]! |= 1 << (hash & 31);
    this.counters.answerCacheStores++;
  }

  /** Moves the absolute write position; every RESET_WORDS the index starts over (see above). */
  private advance(words: number): void {
    this.headAbs = (this.headAbs + words) | 0;
    this.sinceReset += words;
    if (this.sinceReset >= RESET_WORDS) {
      this.sinceReset = 0;
      this.clearIndex();
    }
  }

  /** Marks every index slot empty (ring offset -1). */
  private clearIndex(): void {
    const slots = this.slots;
    for (let s = 0; s < slots.length; s += SLOT_INTS) {
      slots[s] = 0;
      slots[s + 1] = -1;
      slots[s + 2] = 0;
    }
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
  return {
    answerCacheHits: 0,
    answerCacheMisses: 0,
    answerCacheSkips: 0,
    answerCacheStores: 0,
    answerCacheBoundBytes: 0,
  };
}
