/**
 * Reads the parts of a query that zone transfers need (RFC 1035 §4.1): the question, the client's
 * serial from the IXFR authority SOA (RFC 1995 §3) and a trailing TSIG RR (RFC 8945 §4.2), with
 * compressed names followed safely (bounded, backward pointers only).
 */
import { HEADER_SIZE } from '../wire/message/message-constants.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

const MAX_NAME_OCTETS = 255;
const POINTER_MASK = 0xc0;

export class TransferFormatError extends Error {}

export interface TsigRecord {
  /** Offset of the TSIG RR in the message: what precedes it is what the MAC covers. */
  readonly start: number;
  readonly keyLabels: Uint8Array[];
  readonly algorithmLabels: Uint8Array[];
  /** Seconds since the epoch (48 bits). */
  readonly timeSigned: number;
  readonly fudge: number;
  readonly mac: Uint8Array;
  readonly originalId: number;
  readonly error: number;
  readonly other: Uint8Array;
}

export interface TransferQuery {
  readonly id: number;
  readonly flags: number;
  readonly qnameLabels: Uint8Array[];
  /** Wire form of the question (name, type, class) as sent, but with the name uncompressed. */
  readonly question: Uint8Array;
  readonly qtype: number;
  readonly qclass: number;
  /** IXFR: the serial of the client's SOA in the authority section; null when absent. */
  readonly clientSerial: number | null;
  readonly tsig: TsigRecord | null;
}

/** Reads a possibly compressed name at `offset`; `end` is where the name ends in the stream. */
export function readName(buf: Uint8Array, offset: number): { labels: Uint8Array[]; end: number } {
  const labels: Uint8Array[] = [];
  let p = offset;
  let end = -1;
  let total = 1;
  let limit = offset;
  for (;;) {
    const len = buf[p];
    if (len === undefined) throw new TransferFormatError('truncated name');
    if ((len & POINTER_MASK) === POINTER_MASK) {
      const lo = buf[p + 1];
      if (lo === undefined) throw new TransferFormatError('truncated pointer');
      const target = ((len & 0x3f) << 8) | lo;
      // Only backward pointers, each before the previous one: no loops.
      if (target >= limit) throw new TransferFormatError('bad compression pointer');
      if (end === -1) end = p + 2;
      limit = target;
      p = target;
      continue;
    }
    if ((len & POINTER_MASK) !== 0) throw new TransferFormatError('bad label type');
    p += 1;
    if (len === 0) break;
    if (p + len > buf.length) throw new TransferFormatError('truncated label');
    total += len + 1;
    if (total > MAX_NAME_OCTETS) throw new TransferFormatError('name too long');
    labels.push(buf.subarray(p, p + len));
    p += len;
  }
  return { labels, end: end === -1 ? p : end };
}

function u16(buf: Uint8Array, p: number): number {
  if (p + 2 > buf.length) throw new TransferFormatError('truncated');
  return (buf[p]! << 8) | buf[p + 1]!;
}

function u32(buf: Uint8Array, p: number): number {
  return u16(buf, p) * 0x10000 + u16(buf, p + 2);
}

/**
 * Cheap test for the TCP listener: a query (QR 0, opcode QUERY) whose QTYPE is AXFR or IXFR, or
 * an SOA query carrying a TSIG RR (a secondary's signed refresh query, RFC 1996 §3.11). The message
 * is buf[off, off + len) (default: all of buf), so a frame is tested in place.
 */
export function isTransferQuery(buf: Uint8Array, off = 0, len = buf.length - off): boolean {
  const end = off + len;
  if (len < HEADER_SIZE || (buf[off + 2]! & 0xf8) !== 0 || buf[off + 4] !== 0 || buf[off + 5] !== 1) {
    return false;
  }
  let p = off + HEADER_SIZE;
  for (;;) {
    if (p >= end) return false;
    const l = buf[p]!;
    if ((l & POINTER_MASK) !== 0) return false;
    p += l + 1;
    if (l === 0) break;
  }
  if (p + 4 > end) return false;
  const qtype = (buf[p]! << 8) | buf[p + 1]!;
  if (qtype === RR_TYPE.AXFR || qtype === RR_TYPE.IXFR) return true;
  if (qtype !== RR_TYPE.SOA || (buf[off + 10] === 0 && buf[off + 11] === 0)) return false;
  try {
    return parseTransferQuery(buf.subarray(off, end)).tsig !== null;
  } catch {
    return false;
  }
}

function encodeName(labels: readonly Uint8Array[]): number[] {
  const out: number[] = [];
  for (const l of labels) out.push(l.length, ...l);
  out.push(0);
  return out;
}

/** Parses a query; throws TransferFormatError on a malformed one (answer FORMERR). */
export function parseTransferQuery(msg: Uint8Array): TransferQuery {
  if (msg.length < HEADER_SIZE) throw new TransferFormatError('short message');
  const id = u16(msg, 0);
  const flags = u16(msg, 2);
  if (u16(msg, 4) !== 1) throw new TransferFormatError('QDCOUNT must be 1');
  const counts = [u16(msg, 6), u16(msg, 8), u16(msg, 10)] as const;
  const q = readName(msg, HEADER_SIZE);
  const qtype = u16(msg, q.end);
  const qclass = u16(msg, q.end + 2);
  let p = q.end + 4;
  const question = new Uint8Array([
    ...encodeName(q.labels),
    qtype >> 8,
    qtype & 0xff,
    qclass >> 8,
    qclass & 0xff,
  ]);
  let clientSerial: number | null = null;
  let tsig: TsigRecord | null = null;
  for (let section = 0; section < 3; section++) {
    for (let i = 0; i < counts[section]!; i++) {
      const start = p;
      const owner = readName(msg, p);
      const type = u16(msg, owner.end);
      const rdlength = u16(msg, owner.end + 8);
      const rdata = owner.end + 10;
      if (rdata + rdlength > msg.length) throw new TransferFormatError('truncated RDATA');
      p = rdata + rdlength;
      if (section === 1 && type === RR_TYPE.SOA && clientSerial === null) {
        const mname = readName(msg, rdata);
        const rname = readName(msg, mname.end);
        if (rname.end + 4 > p) throw new TransferFormatError('short SOA');
        clientSerial = u32(msg, rname.end);
      }
      if (type === RR_TYPE.TSIG) {
        // RFC 8945 §5.1: TSIG must be the last record of the additional section.
        if (section !== 2 || i !== counts[2] - 1) throw new TransferFormatError('TSIG not last');
        tsig = parseTsigRdata(msg, start, owner.labels, rdata, p);
      }
    }
  }
  if (p !== msg.length) throw new TransferFormatError('trailing bytes');
  return { id, flags, qnameLabels: q.labels, question, qtype, qclass, clientSerial, tsig };
}

function parseTsigRdata(
  msg: Uint8Array,
  start: number,
  keyLabels: Uint8Array[],
  rdata: number,
  end: number,
): TsigRecord {
  const alg = readName(msg, rdata);
  let p = alg.end;
  const timeSigned = u16(msg, p) * 2 ** 32 + u32(msg, p + 2);
  const fudge = u16(msg, p + 6);
  const macSize = u16(msg, p + 8);
  p += 10;
  if (p + macSize + 6 > end) throw new TransferFormatError('short TSIG');
  const mac = msg.slice(p, p + macSize);
  p += macSize;
  const originalId = u16(msg, p);
  const error = u16(msg, p + 2);
  const otherLen = u16(msg, p + 4);
  p += 6;
  if (p + otherLen !== end) throw new TransferFormatError('bad TSIG length');
  return {
    start,
    keyLabels,
    algorithmLabels: alg.labels,
    timeSigned,
    fudge,
    mac,
    originalId,
    error,
    other: msg.slice(p, end),
  };
}
