import type { ClientSubnet } from './client-subnet.ts';
import { createClientSubnet, parseClientSubnet } from './client-subnet.ts';
import {
  EDNS_OPTION_CLIENT_SUBNET,
  EDNS_OPTION_COOKIE,
  EDNS_OPTION_NSID,
  HEADER_SIZE,
  LABEL_MAX,
  NAME_MAX,
  UDP_PLAIN_MAX,
} from './message-constants.ts';
import { lowerByte } from '../wire-name.ts';
import { NAME_HASH_OFFSET, NAME_HASH_PRIME } from '../name-key-hash.ts';
import { QueryName } from './query-name.ts';
import { emptyRdataRejected, rdataShapeValid } from './record-rdata-check.ts';
import { RR_TYPE } from '../rr-type.ts';

/** Smallest possible RR: root owner (1) + TYPE, CLASS, TTL, RDLENGTH (10) (RFC 1035 §4.1.3). */
const RR_MIN_SIZE = 11;

/** Compression pointers followed at most this often in one name (a loop guard beyond "backward only"). */
export const POINTER_HOPS_MAX = 127;

/**
 * One query, parsed into a reusable object (one per call site): no per-query objects (the question
 * name's key strings are made only when an answer needs them, see QueryName).
 */
export interface ParsedQuery {
  id: number;
  /** Second header word (QR, OPCODE, AA, TC, RD, RA, Z, AD, CD, RCODE). */
  flags: number;
  opcode: number;
  qdcount: number;
  /** The question was read (qdcount = 1 and the name was well formed). */
  hasQuestion: boolean;
  /** Offset just after QNAME (the question name occupies [12, qnameEnd)). */
  qnameEnd: number;
  /** Offset just after QCLASS. */
  questionEnd: number;
  qtype: number;
  qclass: number;
  /** QNAME lower-cased, its suffixes' hashes and keys (no labels when there is no question). */
  readonly name: QueryName;
  edns: boolean;
  ednsVersion: number;
  ednsDo: boolean;
  /** Client UDP payload size, values below 512 raised to 512 (RFC 6891 §6.2.5). */
  udpSize: number;
  readonly ecs: ClientSubnet;
  /** The query asked for the server's identity (RFC 5001 §2.1: an empty NSID option). */
  nsid: boolean;
  /** Offset and length of the COOKIE option's data (RFC 7873 §4); -1 and 0 without one. */
  cookieAt: number;
  cookieLength: number;
}

/**
 * - ok: answer normally.
 * - drop: no response (shorter than a header, QR set, unreadable question, QDCOUNT > 1, or QDCOUNT 0
 *   with nothing readable after the header: Knot 3.2 drops all).
 * - formerr: FORMERR without OPT (malformed records after the question, misplaced or duplicate OPT,
 *   trailing bytes, as Knot).
 * - formerr-edns: FORMERR that still carries our OPT (QDCOUNT = 0, invalid Client Subnet option).
 */
export type ParseStatus = 'ok' | 'drop' | 'formerr' | 'formerr-edns';

export function createParsedQuery(): ParsedQuery {
  return {
    id: 0,
    flags: 0,
    opcode: 0,
    qdcount: 0,
    hasQuestion: false,
    qnameEnd: HEADER_SIZE,
    questionEnd: HEADER_SIZE,
    qtype: -1,
    qclass: 0,
    name: new QueryName(),
    edns: false,
    ednsVersion: 0,
    ednsDo: false,
    udpSize: UDP_PLAIN_MAX,
    ecs: createClientSubnet(),
    nsid: false,
    cookieAt: -1,
    cookieLength: 0,
  };
}

/** Reads QNAME (RFC 1035 §4.1.2) without compression; returns the end offset or -1 (→ drop). */
function readQname(buf: Uint8Array, q: ParsedQuery): number {
  const name = q.name;
  const lower = name.lower;
  let pos = HEADER_SIZE;
  let out = 0;
  let labels = 0;
  const starts = name.starts;
  const hashes = name.hashes;
  for (;;) {
    const len = buf[pos];
    if (len === undefined) return -1;
    // Knot drops any compression pointer (or extended label type) in the question.
    if (len > LABEL_MAX) return -1;
    if (out + len + 1 > NAME_MAX) return -1;
    lower[out] = len;
    if (len === 0) {
      out++;
      break;
    }
    if (pos + 1 + len > buf.length) return -1;
    starts[labels] = out;
    // The label's hash (name-key-hash.ts), alongside the lower-casing.
    let lh = Math.imul(NAME_HASH_OFFSET ^ len, NAME_HASH_PRIME);
    for (let i = 1; i <= len; i++) {
      const c = lowerByte(buf[pos + i]!);
      lower[out + i] = c;
      lh = Math.imul(lh ^ c, NAME_HASH_PRIME);
    }
    hashes[labels++] = lh;
    out += len + 1;
    pos += len + 1;
  }
  // nameKeyHash of every suffix: the label hashes combined from the last label backwards.
  let h = NAME_HASH_OFFSET;
  for (let i = labels - 1; i >= 0; i--) {
    h = Math.imul(h ^ hashes[i]!, NAME_HASH_PRIME);
    hashes[i] = h;
  }
  name.reset(labels, out, h);
  return pos + 1;
}

/** Skips a possibly compressed name in a non-question record; returns the end offset or -1. */
function skipName(buf: Uint8Array, start: number): number {
  let pos = start;
  let end = -1;
  let total = 0;
  let hops = 0;
  let limit = start; // pointers must point strictly before the name that uses them
  for (;;) {
    const len = buf[pos];
    if (len === undefined) return -1;
    if (len >= 0xc0) {
      const next = buf[pos + 1];
      if (next === undefined) return -1;
      const target = ((len & 0x3f) << 8) | next;
      if (end < 0) end = pos + 2;
      if (target >= limit || ++hops > POINTER_HOPS_MAX) return -1;
      limit = target;
      pos = target;
      continue;
    }
    if (len > LABEL_MAX) return -1;
    total += len + 1;
    if (total > NAME_MAX) return -1;
    if (len === 0) return end < 0 ? pos + 1 : end;
    pos += len + 1;
  }
}

/** Parses an OPT RR body (RFC 6891 §6.1.2) at `pos` (just after TYPE); false → FORMERR. */
function readOpt(buf: Uint8Array, pos: number, rdlen: number, q: ParsedQuery): 'ok' | 'bad' | 'bad-ecs' {
  const size = (buf[pos + 2]! << 8) | buf[pos + 3]!;
  q.edns = true;
  q.udpSize = size < UDP_PLAIN_MAX ? UDP_PLAIN_MAX : size;
  q.ednsVersion = buf[pos + 5]!;
  q.ednsDo = (buf[pos + 6]! & 0x80) !== 0;
  let p = pos + 10;
  const end = p + rdlen;
  let ecsAt = -1;
  let ecsLen = 0;
  while (p < end) {
    if (p + 4 > end) return 'bad';
    const code = (buf[p]! << 8) | buf[p + 1]!;
    const len = (buf[p + 2]! << 8) | buf[p + 3]!;
    if (p + 4 + len > end) return 'bad';
    // Only the last Client Subnet option counts (Knot 3.2); unknown options are ignored. NSID
    // and COOKIE are noted for the server to answer, when it is set to (handle-message.ts).
    if (code === EDNS_OPTION_CLIENT_SUBNET) {
      ecsAt = p + 4;
      ecsLen = len;
    } else if (code === EDNS_OPTION_NSID) {
      q.nsid = true;
    } else if (code === EDNS_OPTION_COOKIE) {
      q.cookieAt = p + 4;
      q.cookieLength = len;
    }
    p += 4 + len;
  }
  if (ecsAt >= 0 && !parseClientSubnet(buf, ecsAt, ecsLen, q.ecs)) return 'bad-ecs';
  return 'ok';
}

/**
 * Knot 3.2 drops a message whose parse fails before anything past the header was read (QDCOUNT 0
 * and a bad first record, or bare trailing bytes); once something was read it answers FORMERR.
 * `pos` is the end of what was read successfully.
 */
function malformed(pos: number): ParseStatus {
  return pos === HEADER_SIZE ? 'drop' : 'formerr';
}

/** Parses a query into `q` (fully reset first). Never throws. */
export function parseQuery(buf: Uint8Array, q: ParsedQuery): ParseStatus {
  q.hasQuestion = false;
  q.qtype = -1;
  q.qclass = 0;
  q.edns = false;
  q.ednsVersion = 0;
  q.ednsDo = false;
  q.udpSize = UDP_PLAIN_MAX;
  q.ecs.present = false;
  q.nsid = false;
  q.cookieAt = -1;
  q.cookieLength = 0;
  q.qnameEnd = HEADER_SIZE;
  q.questionEnd = HEADER_SIZE;
  if (buf.length < HEADER_SIZE) return 'drop';
  q.id = (buf[0]! << 8) | buf[1]!;
  q.flags = (buf[2]! << 8) | buf[3]!;
  q.opcode = (buf[2]! >> 3) & 0x0f;
  if ((buf[2]! & 0x80) !== 0) return 'drop';
  const qd = (buf[4]! << 8) | buf[5]!;
  const an = (buf[6]! << 8) | buf[7]!;
  const ns = (buf[8]! << 8) | buf[9]!;
  const ar = (buf[10]! << 8) | buf[11]!;
  q.qdcount = qd;
  if (qd !== 1) q.name.reset(0, 1, NAME_HASH_OFFSET);
  if (qd > 1) return 'drop';
  let pos = HEADER_SIZE;
  if (qd === 1) {
    const end = readQname(buf, q);
    if (end < 0 || end + 4 > buf.length) return 'drop';
    q.qnameEnd = end;
    q.qtype = (buf[end]! << 8) | buf[end + 1]!;
    q.qclass = (buf[end + 2]! << 8) | buf[end + 3]!;
    q.hasQuestion = true;
    pos = end + 4;
    q.questionEnd = pos;
  }
  let optSeen = false;
  let ecsBad = false;
  let emptyBad = false;
  const total = an + ns + ar;
  // Knot 3.2 rejects counts that cannot fit before reading any record (the message is then
  // dropped or FORMERR, see malformed()).
  if (total > Math.floor(buf.length / RR_MIN_SIZE)) return malformed(pos);
  for (let i = 0; i < total; i++) {
    const nameEnd = skipName(buf, pos);
    if (nameEnd < 0 || nameEnd + 10 > buf.length) return malformed(pos);
    const type = (buf[nameEnd]! << 8) | buf[nameEnd + 1]!;
    const rdlen = (buf[nameEnd + 8]! << 8) | buf[nameEnd + 9]!;
    if (nameEnd + 10 + rdlen > buf.length) return malformed(pos);
    const rclass = (buf[nameEnd + 2]! << 8) | buf[nameEnd + 3]!;
    if (type !== RR_TYPE.OPT && !rdataShapeValid(buf, nameEnd + 10, rdlen, type, rclass, skipName))
      return malformed(pos);
    if (rdlen === 0 && emptyRdataRejected(type, rclass)) emptyBad = true;
    if (type === RR_TYPE.OPT) {
      // RFC 6891 §6.1.1: one OPT, in the additional section. Knot accepts a non-root owner.
      if (i < an + ns || optSeen) return 'formerr';
      optSeen = true;
      const st = readOpt(buf, nameEnd, rdlen, q);
      if (st === 'bad') return 'formerr';
      if (st === 'bad-ecs') ecsBad = true;
    }
    pos = nameEnd + 10 + rdlen;
  }
  if (pos !== buf.length) return malformed(pos);
  if (emptyBad) return 'formerr';
  if (ecsBad || qd === 0) return 'formerr-edns';
  return 'ok';
}
