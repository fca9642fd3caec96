/**
 * The NSEC3 records of a chain (nsec3-chain.ts) with their RRSIGs as the bytes a response carries,
 * made on first use and kept until the signature is due for refresh: a negative answer then copies
 * each proof as one block instead of writing two RRsets and their names, and touches no object of
 * the record — a flood of random names reads one block per proof, not a record, its owner name,
 * its keys and its signature entry, each somewhere else in memory.
 *
 * A block is: the owner's hashed label (length octet and 32 characters), a compression pointer to
 * the zone apex (RFC 1035 §4.1.4), the NSEC3 RR from TYPE to the end of RDATA, a pointer to the
 * owner, the RRSIG RR from TYPE to the end of RDATA. The two pointers are placeholders that the
 * response writer sets (ResponseWriter.addReadyPair): the apex's place in the question and the
 * block's own place in the message.
 */
import type { ZoneSigner } from './zone-signer.ts';
import type { RRset } from '../wire/rrset-encoding.ts';
import type { WireName } from '../wire/wire-name.ts';
import { rrsigRRset } from './rrsig-rrset.ts';

/** What a block is made of: an NSEC3 record of the chain (nsec3-chain.ts Nsec3Record). */
export interface Nsec3Source {
  readonly owner: WireName;
  readonly ownerKey: string;
  /** The NSEC3 RRset, one flat record. */
  readonly rrset: RRset;
}

/** Octets of a pointer placeholder (RFC 1035 §4.1.4: two octets, top bits 11). */
const POINTER = 2;
const INITIAL_BYTES = 64 * 1024;

export class Nsec3ReadyRecords {
  /** The blocks; replaced when it grows (take it after ensure()). */
  bytes = new Uint8Array(INITIAL_BYTES);
  private used = 0;
  /** Record i's block: offset at [2i] (-1: none yet), length at [2i + 1] — one cache line. */
  private readonly blocks: Int32Array;
  private readonly refreshAtMs: Float64Array;
  /** The earliest refresh time of any block: before it, no block's time needs reading. */
  private earliestRefreshMs = Infinity;
  private signer: ZoneSigner | null = null;

  /** For a chain of `size` records, by their index in hash order. */
  constructor(size: number) {
    this.blocks = new Int32Array(2 * size).fill(-1);
    this.refreshAtMs = new Float64Array(size);
  }

  /** Offset in `bytes` of record i's block, made (or remade) when missing or due for refresh. */
  ensure(i: number, record: Nsec3Source, signer: ZoneSigner, nowMs: number): number {
    if (signer !== this.signer) this.reset(signer);
    const at = this.blocks[2 * i]!;
    if (at >= 0 && (nowMs < this.earliestRefreshMs || nowMs < this.refreshAtMs[i]!)) return at;
    return this.make(i, record, signer);
  }

  /** Length of record i's block (after ensure). */
  lengthOf(i: number): number {
    return this.blocks[2 * i + 1]!;
  }

  /** Another signer (a key change): every block is made again with its signatures. */
  private reset(signer: ZoneSigner): void {
    this.signer = signer;
    this.blocks.fill(-1);
    this.used = 0;
    this.earliestRefreshMs = Infinity;
  }

  private make(i: number, record: Nsec3Source, signer: ZoneSigner): number {
    const entry = signer.signedObjectEntry(record.rrset, record.ownerKey, rrsigRRset);
    const sig = entry.signed as RRset;
    const nsec3 = record.rrset;
    const owner = record.owner;
    const labelLength = owner.bytes[owner.at]! + 1;
    const nsec3Length = rrLength(nsec3);
    const sigLength = rrLength(sig);
    const size = labelLength + POINTER + nsec3Length + POINTER + sigLength;
    // A refreshed signature has the old one's size (the key's): written over it, so refreshes
    // never grow the blocks.
    let start = this.blocks[2 * i]!;
    if (start < 0 || this.blocks[2 * i + 1] !== size) {
      this.room(size);
      start = this.used;
      this.used += size;
    }
    const out = this.bytes;
    let p = start;
    out.set(owner.bytes.subarray(owner.at, owner.at + labelLength), p);
    p += labelLength + POINTER;
    out.set(nsec3.data.subarray(nsec3.start, nsec3.start + nsec3Length), p);
    p += nsec3Length + POINTER;
    out.set(sig.data.subarray(sig.start, sig.start + sigLength), p);
    this.blocks[2 * i] = start;
    this.blocks[2 * i + 1] = size;
    this.refreshAtMs[i] = entry.refreshAtMs;
    // A remade block's old time may have been the earliest: the floor only ever moves down here,
    // so it may be too early (then each block's own time is read), never too late.
    if (entry.refreshAtMs < this.earliestRefreshMs) this.earliestRefreshMs = entry.refreshAtMs;
    return start;
  }

  /** Grows `bytes` for `size` more octets (earlier offsets stay valid). */
  private room(size: number): void {
    if (this.used + size <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + size));
    grown.set(this.bytes.subarray(0, this.used));
    this.bytes = grown;
  }
}

/** TYPE to the end of RDATA of a flat one-record RRset (rrset-encoding.ts, SHAPE_FLAT). */
function rrLength(rs: RRset): number {
  const d = rs.data;
  const p = rs.start;
  return 10 + ((d[p + 8]! << 8) | d[p + 9]!);
}
