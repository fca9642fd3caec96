import type { ParsedQuery } from './query-parser.ts';
import { QueryName, QUERY_LABELS_MAX } from './query-name.ts';
import type { WireName } from '../wire-name.ts';
import type { RRset } from '../rrset-encoding.ts';
import { SHAPE_HINT, SHAPE_MX, SHAPE_NAME, SHAPE_SOA, SRV_HINT_OFFSET } from '../rrset-encoding.ts';
import { COMPRESSION_OFFSET_MAX, HEADER_SIZE, TCP_MAX, EDNS_PAYLOAD_OURS } from './message-constants.ts';
import { RR_TYPE } from '../rr-type.ts';

export const SECTION_ANSWER = 0;
export const SECTION_AUTHORITY = 1;
export const SECTION_ADDITIONAL = 2;
export type Section = 0 | 1 | 2;

/** The OPT RR to append (RFC 6891 §6.1.2); `writeOptions` writes options at an offset, returns the end. */
export interface OptSpec {
  doBit: boolean;
  writeOptions: ((buf: Buffer, pos: number) => number) | null;
}

/** Size of an OPT RR without options: root owner (1) + TYPE, CLASS, TTL, RDLENGTH (10). */
export const OPT_FIXED_SIZE = 11;
/**
 * Names remembered for compression at most: every pointer target lies below offset 0x3fff
 * (COMPRESSION_OFFSET_MAX), so a message has fewer than 0x3fff / 2 names that can be targets.
 */
const NAMES_MAX = 8192;
/** Remembered names looked up by a scan; beyond, through a Map. */
const SCAN_MAX = 32;
const NO_QUESTION = new QueryName();
/** SOA SERIAL..MINIMUM, after the two names (RFC 1035 §3.3.13). */
const SOA_FIXED_SIZE = 20;
/** Longest copy done byte by byte (see copy()). */
const COPY_LOOP_MAX = 48;
/** Room for one RR of maximal size past the limit before the rollback check. */
const SCRATCH_SIZE = 2 * (TCP_MAX + 1) + 1024;

/**
 * Builds one response in a buffer reused for every message of a call site, with name compression
 * (RFC 1035 §4.1.4) and truncation by whole RRsets (RFC 2181 §9). Usage per message:
 * begin() → addRRset()* in section order → finish().
 */
function put16(buf: Buffer, at: number, v: number): void {
  buf[at] = v >>> 8;
  buf[at + 1] = v & 0xff;
}

/** An SOA RR as written after a question name of some length, and the names it left for compression. */
interface SoaWritten {
  readonly bytes: Uint8Array;
  readonly keys: readonly string[];
  readonly offsets: readonly number[];
}

export class ResponseWriter {
  private readonly buf = Buffer.alloc(SCRATCH_SIZE);
  /**
   * Names other than the question's suffixes already in the message: canonical key and offset,
   * in order ([0, journalCount)); a rolled-back RRset just shortens the list. A message holds a
   * handful, so a scan (lengths first) beats a Map's hashing and clearing per message; past
   * SCAN_MAX names (a large TCP answer) a Map indexes them, so the cost stays linear.
   */
  private readonly journal: string[] = [];
  private readonly journalOffsets = new Int32Array(NAMES_MAX);
  private journalCount = 0;
  private index: Map<string, number> | null = null;
  /** The question name (NO_QUESTION, of no labels, when there is none) and its suffixes' offsets. */
  private qname: QueryName = NO_QUESTION;
  private readonly qoffsets = new Int32Array(QUERY_LABELS_MAX);
  private pos = 0;
  private limit = 0;
  /** End of the question in the message (HEADER_SIZE without one). */
  private questionEnd = HEADER_SIZE;
  /** The SOA of negative answers as last written, by question name length (see addSoaAsBefore). */
  private soaRRset: RRset | null = null;
  private soaOwner: WireName | null = null;
  private soaByLength: (SoaWritten | undefined)[] = [];
  /** addSoaAsBefore is writing the SOA through addRRset (which then compresses as usual). */
  private writingSoa = false;
  private readonly counts = [0, 0, 0];
  /** An answer or authority RRset did not fit: TC is set (RFC 1035 §4.1.1). */
  truncated = false;

  /**
   * Starts a response: header fields are filled in by finish(). `maxSize` is the client's limit and
   * `reserve` the bytes kept for the OPT RR. The question is copied from the query bytes so its
   * letter case is the client's (0x20 echo).
   */
  begin(query: Uint8Array, q: ParsedQuery, maxSize: number, reserve: number): void {
    this.journalCount = 0;
    this.index = null;
    this.counts[0] = this.counts[1] = this.counts[2] = 0;
    this.truncated = false;
    this.limit = maxSize - reserve;
    const buf = this.buf;
    buf[0] = query[0]!;
    buf[1] = query[1]!;
    for (let i = 2; i < HEADER_SIZE; i++) buf[i] = 0;
    this.pos = HEADER_SIZE;
    this.qname = NO_QUESTION;
    this.questionEnd = HEADER_SIZE;
    if (q.hasQuestion) {
      const end = q.questionEnd;
      for (let i = HEADER_SIZE; i < end; i++) buf[i] = query[i]!;
      this.pos = end;
      this.questionEnd = end;
      const name = q.name;
      for (let i = 0; i < name.labels; i++) this.qoffsets[i] = HEADER_SIZE + name.starts[i]!;
      this.qname = name;
    }
  }

  private remember(key: string, offset: number): void {
    if (offset > COMPRESSION_OFFSET_MAX || this.journalCount >= NAMES_MAX) return;
    if (this.remembered(key) >= 0 || this.inQuestion(key) >= 0) return;
    this.journalOffsets[this.journalCount] = offset;
    this.journal[this.journalCount++] = key;
    if (this.index !== null) this.index.set(key, offset);
    else if (this.journalCount > SCAN_MAX) {
      this.index = new Map();
      for (let j = 0; j < this.journalCount; j++) this.index.set(this.journal[j]!, this.journalOffsets[j]!);
    }
  }

  /** Offset of a remembered name with key `key`, or -1. */
  private remembered(key: string): number {
    if (this.index !== null) return this.index.get(key) ?? -1;
    const journal = this.journal;
    const length = key.length;
    for (let j = 0; j < this.journalCount; j++) {
      const k = journal[j]!;
      if (k.length === length && k === key) return this.journalOffsets[j]!;
    }
    return -1;
  }

  /** Offset of `key` among the question's suffixes (same label count = same index from the end), or -1. */
  private inQuestion(key: string): number {
    const qn = this.qname;
    for (let j = 0; j < qn.labels; j++) {
      const length = qn.keyLength(j);
      if (length === key.length) return qn.equalsKey(j, key) ? this.qoffsets[j]! : -1;
      if (length < key.length) return -1;
    }
    return -1;
  }

  /** Writes a name, compressed against names already in the message. */
  private writeName(name: WireName): void {
    const buf = this.buf;
    const { keys, bytes, at } = name;
    const start = this.pos;
    const useMap = this.journalCount > 0;
    // Label i starts at byte full - keys[i].length (see WireName).
    const full = keys.length > 0 ? keys[0]!.length : 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      let ptr = this.inQuestion(key);
      if (ptr < 0 && useMap) ptr = this.remembered(key);
      if (ptr >= 0) {
        const prefix = full - key.length;
        for (let b = 0; b < prefix; b++) buf[start + b] = bytes[at + b]!;
        buf[start + prefix] = 0xc0 | (ptr >> 8);
        buf[start + prefix + 1] = ptr & 0xff;
        this.pos = start + prefix + 2;
        for (let j = 0; j < i; j++) this.remember(keys[j]!, start + full - keys[j]!.length);
        return;
      }
    }
    this.copy(bytes, at, full + 1);
    for (let j = 0; j < keys.length; j++) this.remember(keys[j]!, start + full - keys[j]!.length);
  }

  /** Copies `len` bytes of `src` from `from` to the message end. */
  private copy(src: Uint8Array, from: number, len: number): void {
    const buf = this.buf;
    const at = this.pos;
    // Bytes of their own (per-answer RRsets, names) are set() whole; from a shared arena, a byte loop
    // beats creating a view for set() on the short records that dominate answers.
    if (from === 0 && len === src.length) buf.set(src, at);
    else if (len <= COPY_LOOP_MAX) for (let i = 0; i < len; i++) buf[at + i] = src[from + i]!;
    else buf.set(src.subarray(from, from + len), at);
    this.pos = at + len;
  }

  /**
   * Appends a whole RRset owned by `owner` (null: the query name, written as a pointer to the
   * question). Returns false when it does not fit; then nothing of it stays in the message, and
   * for the answer and authority sections TC is set.
   */
  addRRset(section: Section, owner: WireName | null, rrset: RRset): boolean {
    if (this.truncated) return false;
    const { data, shape, names, count } = rrset;
    if (
      shape === SHAPE_SOA &&
      !this.writingSoa &&
      count === 1 &&
      owner !== null &&
      this.journalCount === 0 &&
      this.pos === this.questionEnd &&
      this.qname.labels > 0 &&
      this.soaWritesAsBefore(owner, rrset)
    ) {
      return this.addSoaAsBefore(section, owner, rrset);
    }
    const buf = this.buf;
    const mark = this.pos;
    const journalMark = this.journalCount;
    let p = rrset.start;
    for (let r = 0; r < count; r++) {
      if (owner === null) {
        buf[this.pos] = 0xc0;
        buf[this.pos + 1] = HEADER_SIZE;
        this.pos += 2;
      } else {
        this.writeName(owner);
      }
      if (shape <= SHAPE_HINT) {
        // TYPE..RDLENGTH and RDATA as stored.
        const len = 10 + ((data[p + 8]! << 8) | data[p + 9]!);
        if (shape === SHAPE_HINT) this.remember(names[r]!.keys[0] ?? '', this.pos + SRV_HINT_OFFSET);
        this.copy(data, p, len);
        p += len;
      } else {
        // TYPE, CLASS, TTL stored; RDLENGTH once the names are written (RFC 3597 §4 compression).
        this.copy(data, p, 8);
        p += 8;
        const lenAt = this.pos;
        this.pos += 2;
        if (shape === SHAPE_MX) {
          this.copy(data, p, 2);
          p += 2;
        }
        if (shape === SHAPE_NAME || shape === SHAPE_MX) {
          this.writeName(names[r]!);
        } else {
          this.writeName(names[2 * r]!);
          this.writeName(names[2 * r + 1]!);
        }
        if (shape === SHAPE_SOA) {
          this.copy(data, p, SOA_FIXED_SIZE);
          p += SOA_FIXED_SIZE;
        }
        put16(buf, lenAt, this.pos - lenAt - 2);
      }
      if (this.pos > this.limit) {
        this.pos = mark;
        if (this.index !== null)
          for (let j = journalMark; j < this.journalCount; j++) this.index.delete(this.journal[j]!);
        this.journalCount = journalMark;
        if (section !== 2) this.truncated = true;
        return false;
      }
    }
    this.counts[section]! += count;
    return true;
  }

  /**
   * Appends two RRs kept as ready bytes src[at, at + length) (nsec3-ready-records.ts): an owner's
   * first label, a pointer to the zone apex (`apexLabels` labels, a suffix of the question name),
   * the first RR from TYPE on, a pointer to the owner, the second RR from TYPE on. The pointers are
   * set here. This is byte for byte what addRRset writes for the two RRsets under that owner when
   * neither the question nor a name before holds the owner (the caller's condition); the owner is
   * not remembered, since nothing written after it can end in it. Returns false when it does not
   * fit (TC is set, as addRRset does).
   */
  addReadyPair(section: Section, src: Uint8Array, at: number, length: number, apexLabels: number): boolean {
    if (this.truncated) return false;
    const start = this.pos;
    if (start + length > this.limit) {
      if (section !== 2) this.truncated = true;
      return false;
    }
    const buf = this.buf;
    buf.set(src.subarray(at, at + length), start);
    const apex = this.qoffsets[this.qname.labels - apexLabels]!;
    const apexAt = start + src[at]! + 1;
    buf[apexAt] = 0xc0 | (apex >> 8);
    buf[apexAt + 1] = apex & 0xff;
    const ownerAt = apexAt + 2 + 10 + ((buf[apexAt + 10]! << 8) | buf[apexAt + 11]!);
    buf[ownerAt] = 0xc0 | (start >> 8);
    buf[ownerAt + 1] = start & 0xff;
    this.pos = start + length;
    this.counts[section]! += 2;
    return true;
  }

  /**
   * Whether the SOA `rrset` owned by `owner`, written first after the question, comes out the same
   * for every question name of one length: the owner is the question name or an ancestor (so it
   * is a pointer into the question at an offset fixed by the length), and no suffix of MNAME or
   * RNAME deeper than the owner is a suffix of the question name (those are what differ between
   * question names; the shallower ones are the owner's own suffixes). What is written from the
   * RRset itself and compressed against itself is the same every time.
   */
  private soaWritesAsBefore(owner: WireName, rrset: RRset): boolean {
    const qn = this.qname;
    const qlen = qn.labels;
    const ownerLabels = owner.keys.length;
    if (ownerLabels > qlen || (ownerLabels > 0 && !qn.equalsKey(qlen - ownerLabels, owner.keys[0]!)))
      return false;
    const names = rrset.names;
    for (let n = 0; n < names.length; n++) {
      const keys = names[n]!.keys;
      for (let i = 0; i < keys.length - ownerLabels; i++) {
        const j = qlen - (keys.length - i);
        if (j >= 0 && qn.equalsKey(j, keys[i]!)) return false;
      }
    }
    return true;
  }

  /**
   * A negative answer's SOA (the same RRset for every NXDOMAIN and NODATA of a zone) copied as it
   * was last written after a question name of the same length, with the names it left for
   * compression, instead of compressing its three names again: byte for byte what addRRset
   * writes (soaWritesAsBefore says when that holds). The first of each length is written and kept.
   */
  private addSoaAsBefore(section: Section, owner: WireName, rrset: RRset): boolean {
    if (this.soaRRset !== rrset || this.soaOwner !== owner) {
      this.soaRRset = rrset;
      this.soaOwner = owner;
      this.soaByLength = [];
    }
    const length = this.qname.keyLength(0);
    const before = this.soaByLength[length];
    if (before === undefined || this.pos + before.bytes.length > this.limit) {
      const start = this.pos;
      this.writingSoa = true;
      const written = this.addRRset(section, owner, rrset);
      this.writingSoa = false;
      if (!written) return false;
      if (this.journalCount <= SCAN_MAX) {
        this.soaByLength[length] = {
          bytes: Uint8Array.from(this.buf.subarray(start, this.pos)),
          keys: this.journal.slice(0, this.journalCount),
          offsets: Array.from(this.journalOffsets.subarray(0, this.journalCount)),
        };
      }
      return true;
    }
    this.copy(before.bytes, 0, before.bytes.length);
    const { keys, offsets } = before;
    for (let j = 0; j < keys.length; j++) {
      this.journal[j] = keys[j]!;
      this.journalOffsets[j] = offsets[j]!;
    }
    this.journalCount = keys.length;
    this.counts[section]! += 1;
    return true;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.pos;
  }

  /** The message being built, in [0, length): valid until the next begin(). */
  get bytes(): Buffer {
    return this.buf;
  }

  /** As finishInPlace, then copies the message out into a Buffer of its own. */
  finish(q: ParsedQuery, rcode: number, aa: boolean, opt: OptSpec | null, withOptions = true): Buffer {
    return this.copyOut(this.finishInPlace(q, rcode, aa, opt, withOptions));
  }

  /** The first `length` bytes of the finished message in a Buffer of its own. */
  copyOut(length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    out.set(this.buf.subarray(0, length));
    return out;
  }

  /**
   * Completes the header (RFC 1035 §4.1.1), appends the OPT RR when `opt` is given (RFC 6891 §6.1.2),
   * with its options when `withOptions`; returns the message's length (its bytes: `bytes`).
   */
  finishInPlace(q: ParsedQuery, rcode: number, aa: boolean, opt: OptSpec | null, withOptions = true): number {
    const buf = this.buf;
    // QR, OPCODE copied, AA, TC, RD copied; RA, Z, AD, CD clear (as Knot).
    const flagsHi =
      0x80 | (q.opcode << 3) | (aa ? 0x04 : 0) | (this.truncated ? 0x02 : 0) | ((q.flags >> 8) & 0x01);
    buf[2] = flagsHi;
    buf[3] = rcode & 0x0f;
    put16(buf, 4, q.hasQuestion ? 1 : 0);
    put16(buf, 6, this.counts[0]!);
    put16(buf, 8, this.counts[1]!);
    let ar = this.counts[2]!;
    if (opt) {
      let p = this.pos;
      buf[p] = 0;
      put16(buf, p + 1, RR_TYPE.OPT);
      put16(buf, p + 3, EDNS_PAYLOAD_OURS);
      buf[p + 5] = (rcode >> 4) & 0xff;
      buf[p + 6] = 0; // VERSION 0
      buf[p + 7] = opt.doBit ? 0x80 : 0;
      buf[p + 8] = 0;
      const rdlenAt = p + 9;
      p += OPT_FIXED_SIZE;
      if (withOptions && opt.writeOptions) p = opt.writeOptions(buf, p);
      put16(buf, rdlenAt, p - rdlenAt - 2);
      this.pos = p;
      ar++;
    }
    put16(buf, 10, ar);
    return this.pos;
  }
}
