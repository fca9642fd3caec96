/**
 * Packs resource records into the messages of one transfer response (RFC 5936 §2.2): each message
 * echoes the ID and question, has QR and AA set, and stays under a size that leaves room for a
 * TSIG RR; an RR never spans messages. Names are written uncompressed (allowed, RFC 1035 §4.1.4).
 */
import type { ZoneRecordData } from '../zone/zone-data.ts';
import { nameToWire, parseStoredName } from '../wire/name-text.ts';
import { CLASS_IN, HEADER_SIZE } from '../wire/message/message-constants.ts';

/** Body budget per message; Knot uses similar ~16 KiB envelopes. */
export const TRANSFER_MESSAGE_BUDGET = 16_384;
const FLAG_QR = 0x8000;
export const FLAG_AA = 0x0400;
const FLAG_RD = 0x0100;

/** One RR in wire form (class IN). */
export function recordWire(r: ZoneRecordData): Uint8Array {
  const owner = nameToWire(parseStoredName(r.name));
  const out = Buffer.alloc(owner.length + 10 + r.rdata.length);
  out.set(owner, 0);
  const p = owner.length;
  out.writeUInt16BE(r.type, p);
  out.writeUInt16BE(CLASS_IN, p + 2);
  out.writeUInt32BE(r.ttl >>> 0, p + 4);
  out.writeUInt16BE(r.rdata.length, p + 8);
  out.set(r.rdata, p + 10);
  return out;
}

function header(id: number, queryFlags: number, rcode: number, qd: number, an: number): Buffer {
  const h = Buffer.alloc(HEADER_SIZE);
  h.writeUInt16BE(id, 0);
  h.writeUInt16BE(FLAG_QR | (rcode === 0 ? FLAG_AA : 0) | (queryFlags & FLAG_RD) | rcode, 2);
  h.writeUInt16BE(qd, 4);
  h.writeUInt16BE(an, 6);
  return h;
}

/** A response with no records (errors, RFC 5936 §2.2.1 / RFC 1995 §2). */
export function emptyResponse(
  id: number,
  queryFlags: number,
  question: Uint8Array | null,
  rcode: number,
): Buffer {
  const h = header(id, queryFlags, rcode, question === null ? 0 : 1, 0);
  return question === null ? h : Buffer.concat([h, question]);
}

/** Splits `records` (already in wire form, in order) into response messages. */
export function packMessages(
  id: number,
  queryFlags: number,
  question: Uint8Array,
  records: readonly Uint8Array[],
): Buffer[] {
  const out: Buffer[] = [];
  let batch: Uint8Array[] = [];
  let size = HEADER_SIZE + question.length;
  const flush = (): void => {
    out.push(Buffer.concat([header(id, queryFlags, 0, 1, batch.length), question, ...batch]));
    batch = [];
    size = HEADER_SIZE + question.length;
  };
  for (const rr of records) {
    if (batch.length > 0 && size + rr.length > TRANSFER_MESSAGE_BUDGET) flush();
    batch.push(rr);
    size += rr.length;
  }
  if (batch.length > 0 || out.length === 0) flush();
  return out;
}
