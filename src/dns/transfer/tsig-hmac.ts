/**
 * TSIG with HMAC-SHA256 (RFC 8945): verifying a request (§5.2), signing the first and every
 * following message of a response (§5.3, §5.3.1: all messages of a transfer are signed here),
 * and the unsigned / BADTIME error records (§5.3.2). Secrets never leave this module's HMACs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseStoredName } from '../wire/name-text.ts';
import type { TransferTsigKey } from './transfer-policy.ts';
import { CLASS_ANY } from '../wire/message/message-constants.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import type { TsigRecord } from './transfer-query.ts';

/** RFC 8945 §4.3: TSIG RCODEs carried in the TSIG Error field. */
export const TSIG_BADSIG = 16;
export const TSIG_BADKEY = 17;
export const TSIG_BADTIME = 18;
/** RFC 8945 §10: 300 seconds is the recommended fudge. */
export const TSIG_FUDGE_S = 300;
const HMAC_SHA256_BYTES = 32;
/** RFC 8945 §5.2.2.1: a truncated MAC shorter than half the hash (or 10 octets) is refused. */
const MIN_MAC_BYTES = HMAC_SHA256_BYTES / 2;
const ALGORITHM_LABELS = [new TextEncoder().encode('hmac-sha256')];

function lowerLabels(labels: readonly Uint8Array[]): Uint8Array {
  let size = 1;
  for (const l of labels) size += l.length + 1;
  const out = new Uint8Array(size);
  let p = 0;
  for (const l of labels) {
    out[p++] = l.length;
    for (const c of l) out[p++] = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  }
  return out;
}

/** Stored-form key name (lower case, no trailing dot) in canonical wire form. */
export function keyNameWire(name: string): Uint8Array {
  return lowerLabels(parseStoredName(name));
}

function sameWire(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function u48(seconds: number): Buffer {
  const b = Buffer.alloc(6);
  b.writeUInt16BE(Math.floor(seconds / 2 ** 32), 0);
  b.writeUInt32BE(seconds % 2 ** 32, 2);
  return b;
}

interface Variables {
  readonly keyName: Uint8Array;
  readonly timeSigned: number;
  readonly fudge: number;
  readonly error: number;
  readonly other: Uint8Array;
}

/** RFC 8945 §4.3.3: the TSIG variables in canonical form. */
function variablesWire(v: Variables): Buffer {
  // CLASS ANY, TTL 0.
  const classTtl = Buffer.alloc(6);
  classTtl.writeUInt16BE(CLASS_ANY, 0);
  const tail = Buffer.alloc(6);
  tail.writeUInt16BE(v.fudge, 0);
  tail.writeUInt16BE(v.error, 2);
  tail.writeUInt16BE(v.other.length, 4);
  return Buffer.concat([
    v.keyName,
    classTtl,
    lowerLabels(ALGORITHM_LABELS),
    u48(v.timeSigned),
    tail,
    v.other,
  ]);
}

function timersWire(timeSigned: number, fudge: number): Buffer {
  const f = Buffer.alloc(2);
  f.writeUInt16BE(fudge, 0);
  return Buffer.concat([u48(timeSigned), f]);
}

function macPrefix(mac: Uint8Array): Buffer {
  const len = Buffer.alloc(2);
  len.writeUInt16BE(mac.length, 0);
  return Buffer.concat([len, mac]);
}

export type TsigVerdict =
  | {
      readonly ok: true;
      readonly mac: Uint8Array;
      readonly key: TransferTsigKey;
      readonly timeSigned: number;
    }
  | { readonly ok: false; readonly error: number; readonly tsig: TsigRecord };

/**
 * RFC 8945 §5.2: key and algorithm known (else BADKEY), MAC right (else BADSIG), then time
 * within fudge (else BADTIME). `msg` is the whole request as received.
 */
export function verifyRequest(
  msg: Uint8Array,
  tsig: TsigRecord,
  key: TransferTsigKey | null,
  nowS: number,
): TsigVerdict {
  const keyName = lowerLabels(tsig.keyLabels);
  if (
    key === null ||
    !sameWire(keyName, keyNameWire(key.name)) ||
    !sameWire(lowerLabels(tsig.algorithmLabels), lowerLabels(ALGORITHM_LABELS))
  ) {
    return { ok: false, error: TSIG_BADKEY, tsig };
  }
  const body = Buffer.from(msg.subarray(0, tsig.start));
  body.writeUInt16BE(tsig.originalId, 0);
  body.writeUInt16BE(body.readUInt16BE(10) - 1, 10);
  const expected = createHmac('sha256', key.secret)
    .update(body)
    .update(variablesWire({ keyName, ...tsig }))
    .digest();
  const macLen = tsig.mac.length;
  if (
    macLen < MIN_MAC_BYTES ||
    macLen > HMAC_SHA256_BYTES ||
    !timingSafeEqual(expected.subarray(0, macLen), tsig.mac)
  ) {
    return { ok: false, error: TSIG_BADSIG, tsig };
  }
  if (Math.abs(nowS - tsig.timeSigned) > tsig.fudge) return { ok: false, error: TSIG_BADTIME, tsig };
  return { ok: true, mac: tsig.mac, key, timeSigned: tsig.timeSigned };
}

function tsigRecord(keyName: Uint8Array, id: number, v: Variables, mac: Uint8Array): Buffer {
  const alg = lowerLabels(ALGORITHM_LABELS);
  const head = Buffer.alloc(10);
  head.writeUInt16BE(RR_TYPE.TSIG, 0);
  head.writeUInt16BE(CLASS_ANY, 2);
  head.writeUInt32BE(0, 4);
  const rdata = Buffer.concat([
    alg,
    u48(v.timeSigned),
    Buffer.from([v.fudge >> 8, v.fudge & 0xff, mac.length >> 8, mac.length & 0xff]),
    mac,
    Buffer.from([
      id >> 8,
      id & 0xff,
      v.error >> 8,
      v.error & 0xff,
      v.other.length >> 8,
      v.other.length & 0xff,
    ]),
    v.other,
  ]);
  head.writeUInt16BE(rdata.length, 8);
  return Buffer.concat([keyName, head, rdata]);
}

function appendRecord(message: Uint8Array, record: Buffer): Buffer {
  const out = Buffer.concat([message, record]);
  out.writeUInt16BE(out.readUInt16BE(10) + 1, 10);
  return out;
}

/**
 * Signs the messages of one response in order (RFC 8945 §5.3 and §5.3.1): the first MAC covers
 * the request MAC, the message and the TSIG variables; each later one the previous MAC, the
 * message and the timers. Also signs requests (NOTIFY) when created with an empty prior MAC.
 */
export class TsigSigner {
  private prior: Uint8Array;
  private first = true;

  constructor(
    private readonly key: TransferTsigKey,
    requestMac: Uint8Array | null,
    private readonly timeSigned: number,
  ) {
    this.prior = requestMac ?? new Uint8Array();
  }

  /** `message` has no TSIG yet; returns it with the TSIG RR appended and ARCOUNT moved. */
  sign(message: Uint8Array, error = 0, other: Uint8Array = new Uint8Array()): Buffer {
    const keyName = keyNameWire(this.key.name);
    const v: Variables = { keyName, timeSigned: this.timeSigned, fudge: TSIG_FUDGE_S, error, other };
    const hmac = createHmac('sha256', this.key.secret);
    if (this.prior.length > 0 || !this.first) hmac.update(macPrefix(this.prior));
    hmac.update(message);
    hmac.update(this.first ? variablesWire(v) : timersWire(v.timeSigned, v.fudge));
    const mac = hmac.digest();
    this.first = false;
    this.prior = mac;
    return appendRecord(message, tsigRecord(keyName, (message[0]! << 8) | message[1]!, v, mac));
  }
}

/** RFC 8945 §5.3.2: BADKEY/BADSIG errors carry an unsigned TSIG (MAC size 0). */
export function unsignedTsigError(message: Uint8Array, tsig: TsigRecord, error: number): Buffer {
  const keyName = lowerLabels(tsig.keyLabels);
  const v: Variables = {
    keyName,
    timeSigned: tsig.timeSigned,
    fudge: tsig.fudge,
    error,
    other: new Uint8Array(),
  };
  return appendRecord(message, tsigRecord(keyName, tsig.originalId, v, new Uint8Array()));
}

/** BADTIME is signed and carries our time in Other Data (RFC 8945 §5.2.3). */
export function badTimeResponse(
  message: Uint8Array,
  tsig: TsigRecord,
  key: TransferTsigKey,
  nowS: number,
): Buffer {
  return new TsigSigner(key, tsig.mac, tsig.timeSigned).sign(message, TSIG_BADTIME, u48(nowS));
}
