import type { ByteArena } from './byte-arena.ts';
import type { WireName } from './wire-name.ts';
import { readRdataName } from './wire-name.ts';
import { CLASS_IN, LABEL_MAX, NAME_MAX } from './message/message-constants.ts';
import { RR_TYPE } from './rr-type.ts';

/**
 * How the records of an RRset are laid out in its bytes (see RRset). Flat: each record is TYPE,
 * CLASS, TTL, RDLENGTH and RDATA, copied as is. The other shapes are the types whose RDATA names
 * may be compressed (RFC 3597 §4): each record is TYPE, CLASS, TTL and the RDATA bytes around its
 * names; the writer puts RDLENGTH and the (compressed) names in between.
 */
export const SHAPE_FLAT = 0;
/** Flat (SRV): the target at offset SRV_HINT_OFFSET becomes a compression target (Knot's hint). */
export const SHAPE_HINT = 1;
/** RDATA is one name (NS, CNAME, PTR, ...). */
export const SHAPE_NAME = 2;
/** MX: PREFERENCE (2 bytes), then a name. */
export const SHAPE_MX = 3;
/** MINFO: two names. */
export const SHAPE_TWO_NAMES = 4;
/** SOA: two names, then SERIAL..MINIMUM (20 bytes). */
export const SHAPE_SOA = 5;

/** SRV RDATA: PRIORITY, WEIGHT, PORT, then TARGET (RFC 2782). */
const SRV_TARGET_OFFSET = 6;
/** Offset of an SRV target in its encoded record (after TYPE..RDLENGTH). */
export const SRV_HINT_OFFSET = 10 + SRV_TARGET_OFFSET;
const SOA_FIXED = 20;
const MX_FIXED = 2;

const NO_NAMES: readonly WireName[] = [];

/** Names in a record's RDATA that the writer uses (compression, hint) or that lead elsewhere. */
export function shapeOf(type: number): number {
  switch (type) {
    case RR_TYPE.NS:
    case RR_TYPE.MD:
    case RR_TYPE.MF:
    case RR_TYPE.CNAME:
    case RR_TYPE.MB:
    case RR_TYPE.MG:
    case RR_TYPE.MR:
    case RR_TYPE.PTR:
      return SHAPE_NAME;
    case RR_TYPE.MX:
      return SHAPE_MX;
    case RR_TYPE.MINFO:
      return SHAPE_TWO_NAMES;
    case RR_TYPE.SOA:
      return SHAPE_SOA;
    case RR_TYPE.SRV:
      return SHAPE_HINT;
    default:
      return SHAPE_FLAT;
  }
}

/**
 * Validates a record's RDATA and returns the names in it that the snapshot keeps, in order: the
 * compressible names, the SRV target, the DNAME target (none for other types). Throws on RDATA
 * whose names are malformed (the record is then skipped).
 */
export function rdataNames(type: number, rdata: Uint8Array): WireName[] {
  switch (shapeOf(type)) {
    case SHAPE_NAME: {
      const { name, end } = readRdataName(rdata, 0);
      if (end !== rdata.length) throw new Error('trailing bytes');
      return [name];
    }
    case SHAPE_MX: {
      if (rdata.length < MX_FIXED + 1) throw new Error('short MX');
      const { name, end } = readRdataName(rdata, MX_FIXED);
      if (end !== rdata.length) throw new Error('trailing bytes');
      return [name];
    }
    case SHAPE_TWO_NAMES:
    case SHAPE_SOA: {
      const a = readRdataName(rdata, 0);
      const b = readRdataName(rdata, a.end);
      if (rdata.length - b.end !== (type === RR_TYPE.SOA ? SOA_FIXED : 0)) throw new Error('bad fixed part');
      return [a.name, b.name];
    }
    case SHAPE_HINT:
      return [readRdataName(rdata, SRV_TARGET_OFFSET).name];
    default:
      return type === RR_TYPE.DNAME ? [readRdataName(rdata, 0).name] : [];
  }
}

/**
 * Whether rdataNames accepts `type`'s RDATA at rdata[from, to), without making its names: a
 * packed zone's index (packed-name-index.ts) keeps an owner only for a record it will serve.
 */
export function rdataNamesValid(type: number, rdata: Uint8Array, from: number, to: number): boolean {
  switch (shapeOf(type)) {
    case SHAPE_NAME:
      return rdataNameEnd(rdata, from, to) === to;
    case SHAPE_MX:
      return rdataNameEnd(rdata, from + MX_FIXED, to) === to;
    case SHAPE_TWO_NAMES:
    case SHAPE_SOA: {
      const a = rdataNameEnd(rdata, from, to);
      const b = a < 0 ? -1 : rdataNameEnd(rdata, a, to);
      return b >= 0 && to - b === (type === RR_TYPE.SOA ? SOA_FIXED : 0);
    }
    case SHAPE_HINT:
      return rdataNameEnd(rdata, from + SRV_TARGET_OFFSET, to) >= 0;
    default:
      return type !== RR_TYPE.DNAME || rdataNameEnd(rdata, from, to) >= 0;
  }
}

/** Where the uncompressed name at rdata[at] ends within `to`, or -1 where readRdataName throws. */
function rdataNameEnd(rdata: Uint8Array, at: number, to: number): number {
  let p = at;
  for (;;) {
    if (p >= to) return -1;
    const len = rdata[p]!;
    if (len > LABEL_MAX) return -1;
    p += len + 1;
    if (len === 0) break;
  }
  return p - at > NAME_MAX ? -1 : p;
}

/** Names per record for each shape (0: the writer uses none). */
function namesPerRecord(shape: number): number {
  return shape === SHAPE_TWO_NAMES || shape === SHAPE_SOA ? 2 : shape === SHAPE_FLAT ? 0 : 1;
}

/** Bytes stored per record for the compressible shapes (TYPE, CLASS, TTL and the fixed parts). */
function storedSize(shape: number): number {
  return 8 + (shape === SHAPE_MX ? MX_FIXED : shape === SHAPE_SOA ? SOA_FIXED : 0);
}

/**
 * An RRset pre-encoded for the response writer. The records are `count` consecutive encodings (see
 * the SHAPE_ constants) in `data` from `start`; `data` is usually a chunk shared by a whole zone
 * (byte-arena.ts), so an RRset is one small object, not one buffer per record.
 */
export class RRset {
  /**
   * In-zone A/AAAA RRsets of NS/MX/SRV targets (RFC 1034 §4.3.2 step 6); set once while the
   * snapshot is built, read-only afterwards.
   */
  additional: readonly AdditionalEntry[] = NO_ADDITIONAL;

  constructor(
    readonly type: number,
    /** RFC 2181 §5.2: one TTL per RRset; when the records disagree the smallest is used. */
    readonly ttl: number,
    readonly count: number,
    readonly data: Uint8Array,
    readonly start: number,
    readonly shape: number,
    /** The records' RDATA names (see rdataNames), in record order. */
    readonly names: readonly WireName[],
  ) {}

  /** CNAME/DNAME target (first record) or null. */
  get target(): WireName | null {
    return this.type === RR_TYPE.CNAME || this.type === RR_TYPE.DNAME ? (this.names[0] ?? null) : null;
  }

  /**
   * Raw RDATA of each record (uncompressed wire), rebuilt from the encoding: only signing and
   * re-encoding need it, so it is not kept twice.
   */
  get rdatas(): Uint8Array[] {
    const { data, shape, names } = this;
    const out: Uint8Array[] = [];
    let p = this.start;
    for (let r = 0; r < this.count; r++) {
      if (shape <= SHAPE_HINT) {
        const len = (data[p + 8]! << 8) | data[p + 9]!;
        out.push(data.slice(p + 10, p + 10 + len));
        p += 10 + len;
        continue;
      }
      const parts: Uint8Array[] = [];
      const fixed = storedSize(shape) - 8;
      p += 8;
      if (shape === SHAPE_MX) parts.push(data.subarray(p, p + fixed));
      const per = namesPerRecord(shape);
      for (let i = 0; i < per; i++) parts.push(names[r * per + i]!.wire);
      if (shape === SHAPE_SOA) parts.push(data.subarray(p, p + fixed));
      p += fixed;
      out.push(new Uint8Array(Buffer.concat(parts)));
    }
    return out;
  }
}

export interface AdditionalEntry {
  readonly owner: WireName;
  readonly rrset: RRset;
  /**
   * Mandatory glue: an address of a delegation's name server at or below the cut. In a referral it
   * must fit or the response is truncated (RFC 1034 §4.3.2 step 3b; Knot 3.2 sets TC). Any other
   * additional data is dropped silently when it does not fit (RFC 2181 §9).
   */
  readonly glue: boolean;
}

const NO_ADDITIONAL: readonly AdditionalEntry[] = [];

/**
 * Encodes an RRset. `names` are the records' rdataNames concatenated (already validated), or
 * omitted to parse them here; `arena` holds the bytes (omitted: a buffer of their own).
 */
export function encodeRRset(
  type: number,
  ttl: number,
  rdatas: readonly Uint8Array[],
  names?: readonly WireName[],
  arena?: ByteArena,
): RRset {
  const shape = shapeOf(type);
  const all = names ?? rdatas.flatMap((r) => rdataNames(type, r));
  // The writer reads names by record index: a short list would write garbage, so refuse it here.
  if (all.length < rdatas.length * namesPerRecord(shape)) throw new Error(`names missing for type ${type}`);
  let size = 0;
  for (const r of rdatas) size += shape <= SHAPE_HINT ? 10 + r.length : storedSize(shape);
  let data: Uint8Array;
  let start = 0;
  if (arena) {
    start = arena.reserve(size);
    data = arena.chunk;
  } else {
    data = new Uint8Array(size);
  }
  let p = start;
  for (const r of rdatas) {
    data[p] = type >>> 8;
    data[p + 1] = type & 0xff;
    data[p + 2] = CLASS_IN >>> 8;
    data[p + 3] = CLASS_IN & 0xff;
    data[p + 4] = (ttl >>> 24) & 0xff;
    data[p + 5] = (ttl >>> 16) & 0xff;
    data[p + 6] = (ttl >>> 8) & 0xff;
    data[p + 7] = ttl & 0xff;
    p += 8;
    if (shape <= SHAPE_HINT) {
      data[p] = r.length >>> 8;
      data[p + 1] = r.length & 0xff;
      data.set(r, p + 2);
      p += 2 + r.length;
    } else if (shape === SHAPE_MX) {
      data[p] = r[0]!;
      data[p + 1] = r[1]!;
      p += MX_FIXED;
    } else if (shape === SHAPE_SOA) {
      data.set(r.subarray(r.length - SOA_FIXED), p);
      p += SOA_FIXED;
    }
  }
  // Exact-size copy: a pushed-to array keeps spare capacity.
  return new RRset(type, ttl, rdatas.length, data, start, shape, all.length === 0 ? NO_NAMES : all.slice());
}
