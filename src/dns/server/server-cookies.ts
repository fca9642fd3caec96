import { createHmac } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { siphash24 } from '../wire/siphash.ts';

/** RFC 7873 §4: a client cookie is 8 octets; a server cookie 8 to 32. */
export const CLIENT_COOKIE_SIZE = 8;
/** RFC 9018 §4: Version (1) | Reserved (3) | Timestamp (4) | Hash (8). */
export const SERVER_COOKIE_SIZE = 16;
const VERSION = 1;
/** RFC 9018 §4.3: a server cookie is good for an hour, and 5 minutes early (clock skew). */
const MAX_AGE_S = 3600;
const MAX_EARLY_S = 300;
/** How often the secret changes; the previous one is still accepted (RFC 9018 §5). */
const ROLL_PERIOD_S = 86_400;

/**
 * DNS cookies of a server (RFC 7873, RFC 9018 interoperable server cookies with SipHash-2-4).
 * The secret of each day is derived from one master secret (HMAC-SHA256 of the day's number,
 * first 16 octets), so every worker of a node — and every node given the same master — computes
 * the same secrets without talking to each other, and the secret rolls daily with no state.
 */
export class ServerCookies {
  private period = -1;
  private current: Uint8Array = new Uint8Array(16);
  private previous: Uint8Array = new Uint8Array(16);
  /** Client Cookie | Version | Reserved | Timestamp | Client-IP (at most 8 + 8 + 16 octets). */
  private readonly input = new Uint8Array(32);
  private readonly hash = new Uint8Array(8);

  constructor(
    private readonly master: Uint8Array,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  private secretsAt(now: number): void {
    const period = Math.floor(now / ROLL_PERIOD_S);
    if (period === this.period) return;
    this.period = period;
    this.current = this.derive(period);
    this.previous = this.derive(period - 1);
  }

  private derive(period: number): Uint8Array {
    return new Uint8Array(
      createHmac('sha256', this.master).update(`dns-cookie ${period}`).digest().subarray(0, 16),
    );
  }

  /** The hash input for this client and timestamp; answers its length. */
  private fill(msg: Uint8Array, clientAt: number, ip: Uint8Array, timestamp: number): number {
    const input = this.input;
    input.set(msg.subarray(clientAt, clientAt + CLIENT_COOKIE_SIZE), 0);
    input[8] = VERSION;
    input[9] = 0;
    input[10] = 0;
    input[11] = 0;
    input[12] = timestamp >>> 24;
    input[13] = (timestamp >>> 16) & 0xff;
    input[14] = (timestamp >>> 8) & 0xff;
    input[15] = timestamp & 0xff;
    input.set(ip, 16);
    return 16 + ip.length;
  }

  /**
   * Whether the server cookie at `msg[serverAt, serverAt + serverLength)` is one of ours for the
   * client cookie at `clientAt` and this client address: version 1, not older than an hour nor
   * more than 5 minutes ahead, and the hash of the current or the previous secret.
   */
  valid(msg: Uint8Array, clientAt: number, serverAt: number, serverLength: number, ip: Uint8Array): boolean {
    if (serverLength !== SERVER_COOKIE_SIZE || msg[serverAt] !== VERSION) return false;
    const timestamp =
      ((msg[serverAt + 4]! << 24) |
        (msg[serverAt + 5]! << 16) |
        (msg[serverAt + 6]! << 8) |
        msg[serverAt + 7]!) >>>
      0;
    const now = this.nowSeconds();
    // Serial number arithmetic over 32 bits (RFC 1982), as RFC 9018 §4.3 asks.
    const age = (now - timestamp) | 0;
    if (age > MAX_AGE_S || age < -MAX_EARLY_S) return false;
    this.secretsAt(now);
    const length = this.fill(msg, clientAt, ip, timestamp);
    return (
      this.hashMatches(this.current, length, msg, serverAt + 8) ||
      this.hashMatches(this.previous, length, msg, serverAt + 8)
    );
  }

  private hashMatches(secret: Uint8Array, length: number, msg: Uint8Array, at: number): boolean {
    siphash24(secret, this.input, length, this.hash, 0);
    let diff = 0;
    for (let i = 0; i < 8; i++) diff |= this.hash[i]! ^ msg[at + i]!;
    return diff === 0;
  }

  /** Writes a fresh server cookie (16 octets) for this client at `out[at]`; answers the end. */
  write(msg: Uint8Array, clientAt: number, ip: Uint8Array, out: Uint8Array, at: number): number {
    const now = this.nowSeconds() >>> 0;
    this.secretsAt(now);
    const length = this.fill(msg, clientAt, ip, now);
    out.set(this.input.subarray(8, 16), at);
    siphash24(this.current, this.input, length, out, at + 8);
    return at + SERVER_COOKIE_SIZE;
  }
}

/** A client's address as the octets the cookie hash covers (4 for IPv4, 16 for IPv6). */
export function addressOctets(address: string): Uint8Array {
  if (isIPv4(address)) return Uint8Array.from(address.split('.').map(Number));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return Uint8Array.from(mapped[1]!.split('.').map(Number));
  const [head, tail] = address.split('::') as [string, string | undefined];
  const words = (s: string | undefined): number[] => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const left = words(head);
  const right = words(tail);
  const all =
    tail === undefined
      ? left
      : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const out = new Uint8Array(16);
  all.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}
