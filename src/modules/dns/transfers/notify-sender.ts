/**
 * NOTIFY (RFC 1996) of one zone change to one secondary over UDP: opcode NOTIFY, AA, the apex SOA
 * question and the new SOA as a hint in the answer section (§3.7), signed with the zone's TSIG
 * key when it has one. Retransmitted with a doubling timeout until a response with our ID and
 * opcode arrives (§3.6), at most NOTIFY_ATTEMPTS times.
 */
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import { TsigSigner, nameToWire, parseStoredName, recordWire } from '../../../dns/index.ts';
import type { TransferTsigKey, ZoneRecordData } from '../../../dns/index.ts';

export const NOTIFY_ATTEMPTS = 5;
export const NOTIFY_FIRST_TIMEOUT_MS = 1_000;
const OPCODE_NOTIFY = 4;
const FLAG_AA = 0x0400;
const TYPE_SOA = 6;
const CLASS_IN = 1;

export interface NotifyTarget {
  readonly host: string;
  readonly port: number;
}

/** "192.0.2.1:53" or "[2001:db8::1]:53"; null when the text is not of that form. */
export function parseNotifyTarget(text: string): NotifyTarget | null {
  const m = /^\[([0-9a-fA-F:.]+)\]:(\d{1,5})$/.exec(text) ?? /^([0-9.]+):(\d{1,5})$/.exec(text);
  if (m === null) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1]!, port };
}

export function notifyMessage(
  id: number,
  domain: string,
  soa: ZoneRecordData | null,
  key: TransferTsigKey | null,
): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE((OPCODE_NOTIFY << 11) | FLAG_AA, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(soa === null ? 0 : 1, 6);
  const qname = nameToWire(parseStoredName(domain));
  const q = Buffer.from([TYPE_SOA >> 8, TYPE_SOA & 0xff, CLASS_IN >> 8, CLASS_IN & 0xff]);
  const message = Buffer.concat([header, qname, q, ...(soa === null ? [] : [recordWire(soa)])]);
  return key === null ? message : new TsigSigner(key, null, Math.floor(Date.now() / 1000)).sign(message);
}

/** Resolves true once the target answered, false after the last attempt timed out. */
export function sendNotify(
  target: NotifyTarget,
  domain: string,
  soa: ZoneRecordData | null,
  key: TransferTsigKey | null,
  attempts = NOTIFY_ATTEMPTS,
  firstTimeoutMs = NOTIFY_FIRST_TIMEOUT_MS,
  signal?: AbortSignal,
): Promise<boolean> {
  const id = randomInt(0, 0x10000);
  const message = notifyMessage(id, domain, soa, key);
  const socket = dgram.createSocket(target.host.includes(':') ? 'udp6' : 'udp4');
  return new Promise<boolean>((resolve) => {
    let timer: NodeJS.Timeout | null = null;
    let sent = 0;
    let done = false;
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      if (timer !== null) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.close();
      resolve(ok);
    };
    const onAbort = (): void => finish(false);
    signal?.addEventListener('abort', onAbort);
    socket.on('error', () => undefined);
    socket.on('message', (msg) => {
      // A response (QR) to our ID with opcode NOTIFY, whatever its RCODE (§3.6: then stop).
      if (
        msg.length >= 12 &&
        msg.readUInt16BE(0) === id &&
        (msg[2]! & 0x80) !== 0 &&
        ((msg[2]! >> 3) & 0x0f) === OPCODE_NOTIFY
      ) {
        finish(true);
      }
    });
    const send = (): void => {
      if (sent >= attempts) {
        finish(false);
        return;
      }
      socket.send(message, target.port, target.host, () => undefined);
      timer = setTimeout(send, firstTimeoutMs * 2 ** sent++);
    };
    if (signal?.aborted === true) finish(false);
    else send();
  });
}
