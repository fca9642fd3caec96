/**
 * The NSEC3 chain of a signed zone (RFC 5155), made when the zone's signing is built and patched
 * name by name when the zone changes, so a negative answer is assembled from stored records and
 * never signed per query (Knot's zone-sign.c does the same; nsec-denial.ts is the online
 * alternative).
 *
 * Parameters are those of RFC 9276 §3.1: SHA-1 (hash algorithm 1), no salt, no extra iterations,
 * opt-out off — every authoritative name, empty non-terminals and delegation points included, owns
 * an NSEC3 (RFC 5155 §7.1). With no salt and no extra iterations the hash of a name is one SHA-1
 * over its canonical wire form (RFC 5155 §5).
 *
 * Records are kept sorted by hash: the NSEC3 covering a hash is found by binary search (RFC 5155
 * §7.2.1: owner hash < hash < next hash, the last record wrapping to the first). Each record is an
 * immutable object (its owner name and its encoded RRset), so its RRSIG is made once and then found
 * by identity (ZoneSigner.signedObject); a patch replaces only the records whose content changed:
 * the changed names' own and their predecessors' in hash order.
 */
import { wireOfKey } from './canonical-name.ts';
import { sha1Into } from './nsec3-hash.ts';
import { Nsec3ReadyRecords } from './nsec3-ready-records.ts';
import { writeTypeBitmap } from '../wire/rdata/rdata-type-bitmap.ts';
import { RdataWriter } from '../wire/rdata/rdata-wire-writer.ts';
import { encodeRRset, type RRset } from '../wire/rrset-encoding.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { wireNameFromWire, type WireName } from '../wire/wire-name.ts';

/** RFC 5155 §11: hash algorithm 1, SHA-1. */
export const NSEC3_HASH_SHA1 = 1;
const HASH_LENGTH = 20;
/** Base32hex (RFC 4648 §7) of a 160-bit hash: 32 characters, no padding. */
const HASHED_LABEL_LENGTH = 32;
const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

/** NSEC3PARAM RDATA at the apex (RFC 5155 §4.2, RFC 9276 §3.1): SHA-1, flags 0, 0 iterations, no salt. */
export const NSEC3PARAM_RDATA: Uint8Array = Uint8Array.of(NSEC3_HASH_SHA1, 0, 0, 0, 0);
/** NSEC3 RDATA up to the next hashed owner: algorithm, flags (opt-out clear), iterations, salt length, hash length. */
const NSEC3_RDATA_HEAD: Uint8Array = Uint8Array.of(NSEC3_HASH_SHA1, 0, 0, 0, 0, HASH_LENGTH);

/** One NSEC3 record of the chain, with what an answer writes of it. */
export interface Nsec3Record {
  /** Hash of the original owner name (20 octets). */
  readonly hash: Uint8Array;
  /** The name it stands for (a name key, see WireName). */
  readonly originalKey: string;
  /** "<base32hex(hash)>.<apex>" as a name key, and as a name. */
  readonly ownerKey: string;
  readonly owner: WireName;
  /** The NSEC3 RRset (one record), encoded once. */
  readonly rrset: RRset;
}

/** See Nsec3Chain.encloserIndexes. */
export interface EncloserIndexes {
  readonly match: number;
  readonly wildcardCover: number;
}

/** The zone facts the chain is made of. */
export interface Nsec3Zone {
  readonly apexKey: string;
  /** Types of an existing name as its NSEC would show them, without RRSIG/NSEC (DenialZone.typesAt). */
  typesAt(key: string): readonly number[];
}

/** Scratch for the wire form of a name being hashed (keys are at most 254 octets), and its hash. */
const scratch = new Uint8Array(256);
const scratchHash = new Uint8Array(HASH_LENGTH);

/** Writes `key` and the root label into `scratch`; returns the wire length. */
function wireIntoScratch(key: string): number {
  const n = key.length;
  for (let i = 0; i < n; i++) scratch[i] = key.charCodeAt(i);
  scratch[n] = 0;
  return n + 1;
}

/**
 * The NSEC3 hash of a name key (RFC 5155 §5 with no salt and 0 iterations: one SHA-1 of the
 * canonical wire form; keys are lower case already).
 */
export function nsec3Hash(key: string): Uint8Array {
  const out = new Uint8Array(HASH_LENGTH);
  sha1Into(scratch, 0, wireIntoScratch(key), out);
  return out;
}

/** A record of the chain; its owner as a name is made when an answer first writes it. */
class ChainRecord implements Nsec3Record {
  private ownerName: WireName | null = null;

  constructor(
    readonly hash: Uint8Array,
    readonly originalKey: string,
    readonly ownerKey: string,
    readonly rrset: RRset,
  ) {}

  get owner(): WireName {
    return (this.ownerName ??= wireNameFromWire(wireOfKey(this.ownerKey)));
  }
}

const BASE32HEX_CODES = Buffer.from(BASE32HEX, 'latin1');
/** Room for the base32hex of a hash: written there, then read as one string. */
const BASE32_SCRATCH = Buffer.alloc(HASHED_LABEL_LENGTH);
/** A hashed owner label's length octet, as a name key starts with it. */
const HASHED_LABEL_PREFIX = String.fromCharCode(HASHED_LABEL_LENGTH);

/** Base32hex, lower case, unpadded (RFC 4648 §7; RFC 5155 §3.3 presentation of hashed owner names). */
export function base32hex(bytes: Uint8Array): string {
  const size = Math.ceil((bytes.length * 8) / 5);
  const out = size <= BASE32_SCRATCH.length ? BASE32_SCRATCH : Buffer.allocUnsafe(size);
  let p = 0;
  let bits = 0;
  let value = 0;
  for (let i = 0; i < bytes.length; i++) {
    value = ((value << 8) | bytes[i]!) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      out[p++] = BASE32HEX_CODES[(value >>> (bits - 5)) & 31]!;
      bits -= 5;
    }
  }
  if (bits > 0) out[p++] = BASE32HEX_CODES[(value << (5 - bits)) & 31]!;
  return out.toString('latin1', 0, p);
}

/** The hash at a[i] compared with the one at b[j] (20-octet slots). */
function compareAt(a: Uint8Array, i: number, b: Uint8Array, j: number): number {
  const x = i * HASH_LENGTH;
  const y = j * HASH_LENGTH;
  for (let k = 0; k < HASH_LENGTH; k++) {
    const d = a[x + k]! - b[y + k]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** Indexes in a double beside a 32-bit head: exact while below 2^21 (2^32 × 2^21 = 2^53). */
const INDEX_SPAN = 2 ** 21;

function headAt(hashes: Uint8Array, i: number): number {
  const at = i * HASH_LENGTH;
  return ((hashes[at]! << 24) | (hashes[at + 1]! << 16) | (hashes[at + 2]! << 8) | hashes[at + 3]!) >>> 0;
}

/**
 * The indexes 0 .. n - 1 of the hashes (20-octet slots) in hash order: sorted by their first 32
 * bits as numbers (head × 2^21 + index, a native numeric sort), then each run of equal heads by
 * the whole hash. A comparator sort of a million hashes took a second.
 */
export function hashOrder(hashes: Uint8Array, n: number): number[] {
  const byHash = (a: number, b: number): number => compareAt(hashes, a, hashes, b);
  if (n >= INDEX_SPAN) return Array.from({ length: n }, (_, i) => i).sort(byHash);
  const keyed = new Float64Array(n);
  for (let i = 0; i < n; i++) keyed[i] = headAt(hashes, i) * INDEX_SPAN + i;
  keyed.sort();
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = keyed[i]! % INDEX_SPAN;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && headAt(hashes, order[j]!) === headAt(hashes, order[i]!)) j++;
    if (j - i > 1) order.splice(i, j - i, ...order.slice(i, j).sort(byHash));
    i = j;
  }
  return order;
}

function compareHash(a: Uint8Array, b: Uint8Array): number {
  return compareAt(a, 0, b, 0);
}

/**
 * Type bitmap of the NSEC3 of a name with `types` (RFC 5155 §3.2.1): its types, RRSIG when it has
 * signed data; empty for an empty non-terminal; NS alone at a delegation without DS.
 */
export function nsec3Types(types: readonly number[]): number[] {
  const set = new Set(types);
  set.delete(RR_TYPE.NSEC);
  set.delete(RR_TYPE.RRSIG);
  const unsignedCut = set.size === 1 && set.has(RR_TYPE.NS);
  if (set.size > 0 && !unsignedCut) set.add(RR_TYPE.RRSIG);
  return [...set].sort((a, b) => a - b);
}

export class Nsec3Chain {
  /** Sorted by hash. */
  private readonly records: Nsec3Record[] = [];
  private readonly byName = new Map<string, Nsec3Record>();
  /** Covering record of "*.<key>" by closest encloser key (cleared on every patch). */
  private readonly wildcardCovers = new Map<string, Nsec3Record>();
  /** encloserIndexes() by closest encloser key (cleared on every patch). */
  private readonly enclosers = new Map<string, EncloserIndexes>();
  /**
   * The records' hashes in order, 20 octets each, and each hash's first 32 bits: the binary search
   * reads these two arrays rather than one object and one array per step (remade after a patch).
   */
  private hashBytes: Uint8Array = new Uint8Array(0);
  private hashHeads = new Uint32Array(0);
  private readyRecords = new Nsec3ReadyRecords(0);
  private indexed = false;
  /** Type bit maps by their types (a zone's names have few kinds). */
  private readonly bitmaps = new Map<string, Uint8Array>();

  constructor(
    private zone: Nsec3Zone,
    readonly ttl: number,
    names: Iterable<string>,
  ) {
    // The hashes in one array, then sorted into another: the records' hashes are views of it, and
    // it is the binary search's array too (index) until a patch. At a million names, a buffer and
    // an object per hash made this set-up a third garbage collection.
    const keys = Array.isArray(names) ? (names as readonly string[]) : [...names];
    const n = keys.length;
    const unsorted = new Uint8Array(n * HASH_LENGTH);
    for (let i = 0; i < n; i++) {
      sha1Into(scratch, 0, wireIntoScratch(keys[i]!), scratchHash);
      unsorted.set(scratchHash, i * HASH_LENGTH);
    }
    const order = hashOrder(unsorted, n);
    const sorted = new Uint8Array(n * HASH_LENGTH);
    for (let i = 0; i < n; i++)
      sorted.set(unsorted.subarray(order[i]! * HASH_LENGTH, (order[i]! + 1) * HASH_LENGTH), i * HASH_LENGTH);
    const hashAt = (i: number): Uint8Array => sorted.subarray(i * HASH_LENGTH, (i + 1) * HASH_LENGTH);
    for (let i = 0; i < n; i++) {
      const key = keys[order[i]!]!;
      const record = this.make(key, hashAt(i), hashAt((i + 1) % n));
      this.records.push(record);
      this.byName.set(key, record);
    }
    this.setIndex(sorted);
  }

  get size(): number {
    return this.records.length;
  }

  /** Every record in hash order (tests, zone dumps). */
  list(): readonly Nsec3Record[] {
    return this.records;
  }

  /** The NSEC3 matching the existing name `key` (RFC 5155 §7.2.3), or undefined when it has none. */
  matching(key: string): Nsec3Record | undefined {
    return this.byName.get(key);
  }

  /** The NSEC3 covering (or matching) `hash`: greatest owner hash ≤ hash, wrapping to the last. */
  coveringHash(hash: Uint8Array): Nsec3Record {
    return this.records[this.coveringIndex(hash)]!;
  }

  /** Index in hash order of the record coveringHash() returns. */
  coveringIndex(hash: Uint8Array): number {
    if (!this.indexed) this.index();
    const heads = this.hashHeads;
    const head = ((hash[0]! << 24) | (hash[1]! << 16) | (hash[2]! << 8) | hash[3]!) >>> 0;
    let lo = 0;
    let hi = heads.length;
    // First index whose hash is > hash.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const h = heads[mid]!;
      if (h < head || (h === head && this.compareAt(mid, hash) <= 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? heads.length - 1 : lo - 1;
  }

  /** The record at index i in hash order (see coveringIndex). */
  at(i: number): Nsec3Record {
    return this.records[i]!;
  }

  /** Index in hash order of a record of this chain. */
  indexOf(record: Nsec3Record): number {
    return this.coveringIndex(record.hash);
  }

  /** As coveringSuffix, the record's index in hash order. */
  coveringSuffixIndex(key: string, from: number): number {
    const n = wireIntoScratch(key);
    sha1Into(scratch, from, n - from, scratchHash);
    return this.coveringIndex(scratchHash);
  }

  /**
   * The indexes of the NSEC3 matching the closest encloser `ceKey` and of the one covering its
   * wildcard (RFC 5155 §7.2.1: two of the three records of every NXDOMAIN below it), remembered
   * until the next patch; -1 for a name without an NSEC3.
   */
  encloserIndexes(ceKey: string): EncloserIndexes {
    let e = this.enclosers.get(ceKey);
    if (e === undefined) {
      const match = this.byName.get(ceKey);
      e = {
        match: match === undefined ? -1 : this.indexOf(match),
        wildcardCover: this.indexOf(this.coveringWildcard(ceKey)),
      };
      this.enclosers.set(ceKey, e);
    }
    return e;
  }

  /** The records with their RRSIGs as answer bytes, by index (nsec3-ready-records.ts). */
  ready(): Nsec3ReadyRecords {
    if (!this.indexed) this.index();
    return this.readyRecords;
  }

  /** Record i's hash compared with `hash` (its first 4 octets are known equal). */
  private compareAt(i: number, hash: Uint8Array): number {
    const bytes = this.hashBytes;
    const at = i * HASH_LENGTH;
    for (let b = 4; b < HASH_LENGTH; b++) {
      const d = bytes[at + b]! - hash[b]!;
      if (d !== 0) return d;
    }
    return 0;
  }

  private index(): void {
    const n = this.records.length;
    const bytes = new Uint8Array(n * HASH_LENGTH);
    for (let i = 0; i < n; i++) bytes.set(this.records[i]!.hash, i * HASH_LENGTH);
    this.setIndex(bytes);
  }

  /** The search arrays over `bytes`, the records' hashes in order. */
  private setIndex(bytes: Uint8Array): void {
    const n = this.records.length;
    const heads = new Uint32Array(n);
    for (let i = 0, at = 0; i < n; i++, at += HASH_LENGTH) {
      heads[i] = ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
    }
    this.hashBytes = bytes;
    this.hashHeads = heads;
    this.readyRecords = new Nsec3ReadyRecords(n);
    this.indexed = true;
  }

  /** The NSEC3 covering the (missing) name `key` (RFC 5155 §7.2.1): one hash, one binary search. */
  covering(key: string): Nsec3Record {
    return this.coveringSuffix(key, 0);
  }

  /**
   * The NSEC3 covering the name `key.slice(from)` (`from` on a label boundary, e.g. the next closer
   * name of a query name): no allocation.
   */
  coveringSuffix(key: string, from: number): Nsec3Record {
    const n = wireIntoScratch(key);
    sha1Into(scratch, from, n - from, scratchHash);
    return this.coveringHash(scratchHash);
  }

  /** The NSEC3 covering the wildcard at the closest encloser `ceKey` (RFC 5155 §7.2.2), remembered. */
  coveringWildcard(ceKey: string): Nsec3Record {
    let r = this.wildcardCovers.get(ceKey);
    if (r === undefined) {
      r = this.covering(`\x01*${ceKey}`);
      this.wildcardCovers.set(ceKey, r);
    }
    return r;
  }

  /**
   * Follows a zone change: `touched` names may have come, gone or changed types; `exists` tells
   * which names own an NSEC3 now, `zone` the new types. Remakes only the records whose content
   * changes: the touched names' own and the predecessors (in hash order) of names that came or went.
   * Returns the records made anew (to be signed).
   */
  patch(zone: Nsec3Zone, touched: Iterable<string>, exists: (key: string) => boolean): Nsec3Record[] {
    this.zone = zone;
    this.wildcardCovers.clear();
    this.enclosers.clear();
    this.indexed = false;
    const moved: Uint8Array[] = [];
    const dirty = new Set<string>();
    for (const key of touched) {
      const had = this.byName.get(key);
      const has = exists(key);
      if (had !== undefined && !has) {
        this.records.splice(this.positionOf(had.hash), 1);
        this.byName.delete(key);
        moved.push(had.hash);
      } else if (had === undefined && has) {
        const hash = nsec3Hash(key);
        // A placeholder until the remake below (its next hash is not known yet).
        const placeholder = { hash, originalKey: key } as unknown as Nsec3Record;
        this.records.splice(this.insertionIndex(hash), 0, placeholder);
        this.byName.set(key, placeholder);
        moved.push(hash);
        dirty.add(key);
      } else if (has) {
        dirty.add(key);
      }
    }
    if (this.records.length === 0) return [];
    for (const hash of moved) {
      const i = this.insertionIndex(hash);
      // The record before `hash` (the one now pointing at it or past it).
      const before = this.records[(i - 1 + this.records.length) % this.records.length]!;
      dirty.add(before.originalKey);
    }
    const remade: Nsec3Record[] = [];
    for (const key of dirty) {
      const at = this.positionOf(this.byName.get(key)!.hash);
      const next = this.records[(at + 1) % this.records.length]!.hash;
      const record = this.make(key, this.records[at]!.hash, next);
      this.records[at] = record;
      this.byName.set(key, record);
      remade.push(record);
    }
    return remade;
  }

  /** First index whose hash is ≥ `hash`. */
  private insertionIndex(hash: Uint8Array): number {
    let lo = 0;
    let hi = this.records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareHash(this.records[mid]!.hash, hash) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private positionOf(hash: Uint8Array): number {
    return this.insertionIndex(hash);
  }

  private make(originalKey: string, hash: Uint8Array, next: Uint8Array): Nsec3Record {
    const bitmap = this.bitmapOf(this.zone.typesAt(originalKey));
    const rdata = new Uint8Array(NSEC3_RDATA_HEAD.length + HASH_LENGTH + bitmap.length);
    rdata.set(NSEC3_RDATA_HEAD, 0);
    rdata.set(next, NSEC3_RDATA_HEAD.length);
    rdata.set(bitmap, NSEC3_RDATA_HEAD.length + HASH_LENGTH);
    const ownerKey = HASHED_LABEL_PREFIX + base32hex(hash) + this.zone.apexKey;
    return new ChainRecord(hash, originalKey, ownerKey, encodeRRset(RR_TYPE.NSEC3, this.ttl, [rdata], []));
  }

  /** The type bit map of a name with `types` (nsec3Types), made once per set of types. */
  private bitmapOf(types: readonly number[]): Uint8Array {
    const key = types.join();
    let bitmap = this.bitmaps.get(key);
    if (bitmap === undefined) {
      const w = new RdataWriter('NSEC3');
      writeTypeBitmap(w, nsec3Types(types));
      bitmap = w.finish();
      this.bitmaps.set(key, bitmap);
    }
    return bitmap;
  }
}
