/**
 * Response Rate Limiting for UDP, modelled on Knot DNS's `rrl` module and BIND's RRL
 * (https://www.knot-dns.cz/docs/latest/html/modules.html#rrl-response-rate-limiting).
 *
 * Contract:
 * - A bucket is keyed by (response class, client network, name). The client network is the /24
 *   of an IPv4 address or the /56 of an IPv6 address. The name is the QNAME for positive answers
 *   and the zone apex for every other class (NXDOMAIN, NODATA, errors, referrals, wildcard),
 *   so that random-subdomain floods share one bucket per zone.
 * - Each bucket is a token bucket holding at most `rate` tokens, refilled at `rate` per second.
 *   A response consumes one token; without a token the response is limited: every `slip`-th
 *   limited response of that bucket is sent truncated (TC=1, question only, RFC 1035 §4.1.1) so
 *   a real client retries over TCP, the others are dropped. slip 0 drops all, slip 1 slips all.
 * - `rate` 0 disables the limiter. Clients in the exempt list are never limited.
 * - Memory is bounded: a fixed, power-of-two table of buckets indexed by a hash; a colliding
 *   flow simply takes the slot over (as Knot does), which can only make limiting more lenient.
 * - The clock is injected (`now()` in ms) so tests need no sleeps.
 */
import { createCidrMatcher, IP_BYTES, parseIpInto } from '../wire/cidr-matcher.ts';
import type { ClientInfo, MessageOutcome } from './handle-message.ts';

export const RRL_SEND = 0;
export const RRL_SLIP = 1;
export const RRL_DROP = 2;
export type RrlDecision = typeof RRL_SEND | typeof RRL_SLIP | typeof RRL_DROP;

/** Knot's default slip. */
export const DEFAULT_RRL_SLIP = 2;
/** Buckets in the table (Knot defaults to 393241; a power of two lets us mask). */
export const DEFAULT_RRL_TABLE_SIZE = 1 << 16;
export const MAX_RRL_TABLE_SIZE = 1 << 24;
/** Prefix lengths of the client network a bucket covers (Knot/BIND defaults). */
export const RRL_IPV4_PREFIX_BYTES = 3; // /24
export const RRL_IPV6_PREFIX_BYTES = 7; // /56
/** Loopback is exempt so that local monitoring and benchmarks are never limited. */
export const DEFAULT_RRL_EXEMPT: readonly string[] = ['127.0.0.0/8', '::1/128'];

const DNS_HEADER_SIZE = 12;
const MS_PER_SECOND = 1000;

export interface RrlOptions {
  /** Responses per second per bucket; 0 disables. */
  rate: number;
  slip?: number;
  /** Rounded up to a power of two. */
  tableSize?: number;
  /** CIDR list of clients never limited; defaults to loopback. */
  exempt?: readonly string[];
  now?: () => number;
}

export interface ResponseRateLimiter {
  readonly enabled: boolean;
  /**
   * Decides what to do with the response in `response` [off, off + len) (default: all of it), the
   * handler's answer to `client` described by `out`. Call once per UDP response about to be sent.
   */
  decide(
    client: ClientInfo,
    out: MessageOutcome,
    response: Uint8Array,
    off?: number,
    len?: number,
  ): RrlDecision;
}

/** Response classes (Knot's rrl.c classification, reduced to what MessageOutcome tells us). */
const enum RrlClass {
  Positive = 1,
  NxDomain = 2,
  NoData = 3,
  Error = 4,
  Referral = 5,
  Wildcard = 6,
}

function classOf(kind: MessageOutcome['kind']): RrlClass {
  switch (kind) {
    case 'positive':
      return RrlClass.Positive;
    case 'nxdomain':
      return RrlClass.NxDomain;
    case 'nodata':
      return RrlClass.NoData;
    case 'referral':
      return RrlClass.Referral;
    case 'wildcard':
      return RrlClass.Wildcard;
    default:
      return RrlClass.Error;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function mix(h: number, byte: number): number {
  return Math.imul(h ^ byte, FNV_PRIME);
}

export function createResponseRateLimiter(opts: RrlOptions): ResponseRateLimiter {
  const rate = opts.rate;
  if (!Number.isFinite(rate) || rate < 0) throw new Error(`invalid RRL rate: ${rate}`);
  const slip = opts.slip ?? DEFAULT_RRL_SLIP;
  if (!Number.isInteger(slip) || slip < 0) throw new Error(`invalid RRL slip: ${slip}`);
  const now = opts.now ?? Date.now;
  const exempt = createCidrMatcher(opts.exempt ?? DEFAULT_RRL_EXEMPT);
  let size = 1;
  const wanted = Math.min(opts.tableSize ?? DEFAULT_RRL_TABLE_SIZE, MAX_RRL_TABLE_SIZE);
  while (size < wanted) size <<= 1;
  const mask = size - 1;
  const enabled = rate > 0;
  // Struct-of-arrays table: no objects per bucket, fixed memory (~29 bytes a bucket).
  const keys = new Uint32Array(enabled ? size : 0);
  const used = new Uint8Array(enabled ? size : 0);
  const tokens = new Float64Array(enabled ? size : 0);
  const stamps = new Float64Array(enabled ? size : 0);
  const slipCounts = new Uint32Array(enabled ? size : 0);
  const ip = new Uint8Array(IP_BYTES);
  // Consecutive responses mostly go to the same client (floods, busy resolvers, benchmarks):
  // the exempt check and the address parse are redone only when the address text changes.
  let lastAddress: string | null = null;
  let lastExempt = false;
  let lastFamily = 0;

  function hashKey(
    out: MessageOutcome,
    response: Uint8Array,
    off: number,
    len: number,
    cls: RrlClass,
  ): number {
    let h = mix(FNV_OFFSET, cls);
    // decide() has just remembered client.address: `ip` holds its bytes.
    const family = lastFamily;
    h = mix(h, family);
    const prefixBytes = family === 4 ? RRL_IPV4_PREFIX_BYTES : family === 6 ? RRL_IPV6_PREFIX_BYTES : 0;
    for (let i = 0; i < prefixBytes; i++) h = mix(h, ip[i]!);
    if (cls === RrlClass.Positive) {
      // QNAME from the response's question (RFC 1035 §4.1.2), ASCII-lowercased, bounded.
      const stop = off + len;
      let p = off + DNS_HEADER_SIZE;
      while (p < stop) {
        const label = response[p]!;
        if (label === 0 || label > 63) break;
        const end = Math.min(p + 1 + label, stop);
        h = mix(h, label);
        for (let i = p + 1; i < end; i++) {
          const c = response[i]!;
          h = mix(h, c >= 0x41 && c <= 0x5a ? c | 0x20 : c);
        }
        p = end;
      }
    } else {
      const apex = out.zoneApex;
      for (let i = 0; i < apex.length; i++) h = mix(h, apex.charCodeAt(i) & 0xff);
    }
    return h >>> 0;
  }

  function remember(address: string): void {
    lastAddress = address;
    lastExempt = exempt.matches(address);
    lastFamily = parseIpInto(address, ip);
  }

  return {
    enabled,
    decide(client, out, response, off = 0, len = response.length - off) {
      // A valid server cookie proves the source address (RFC 7873 §5.3): not rate limited (as Knot).
      if (!enabled || out.cookieValid) return RRL_SEND;
      if (client.address !== lastAddress) remember(client.address);
      if (lastExempt) return RRL_SEND;
      const key = hashKey(out, response, off, len, classOf(out.kind));
      const i = key & mask;
      const t = now();
      if (used[i] === 0 || keys[i] !== key) {
        used[i] = 1;
        keys[i] = key;
        tokens[i] = rate;
        stamps[i] = t;
        slipCounts[i] = 0;
      } else {
        const elapsed = t - stamps[i]!;
        if (elapsed > 0) {
          tokens[i] = Math.min(rate, tokens[i]! + (elapsed * rate) / MS_PER_SECOND);
          stamps[i] = t;
        }
      }
      if (tokens[i]! >= 1) {
        tokens[i] = tokens[i]! - 1;
        return RRL_SEND;
      }
      if (slip === 0) return RRL_DROP;
      const n = (slipCounts[i] = (slipCounts[i]! + 1) % slip);
      return n === 0 ? RRL_SLIP : RRL_DROP;
    },
  };
}

/**
 * Rewrites `response` in place into its slipped form: TC set, AN/NS/AR counts zero, only the
 * header and question kept (RFC 1035 §4.1.1; a truncated answer makes the client retry over
 * TCP, which RRL does not limit). Returns a view of the shortened message.
 */
export function truncateForSlip(response: Buffer): Buffer {
  return response.subarray(0, truncateForSlipAt(response, 0, response.length));
}

/** truncateForSlip on the message at bytes[off, off + len); returns its new length. */
export function truncateForSlipAt(bytes: Uint8Array, off: number, len: number): number {
  if (len < DNS_HEADER_SIZE) return len;
  const stop = off + len;
  let end = off + DNS_HEADER_SIZE;
  const qdcount = (bytes[off + 4]! << 8) | bytes[off + 5]!;
  if (qdcount > 0) {
    let p = off + DNS_HEADER_SIZE;
    while (p < stop) {
      const label = bytes[p]!;
      if (label === 0) {
        p += 1;
        break;
      }
      if ((label & 0xc0) === 0xc0) {
        p += 2;
        break;
      }
      p += 1 + label;
    }
    end = Math.min(p + 4, stop);
    bytes[off + 4] = 0;
    bytes[off + 5] = 1;
  }
  bytes[off + 2] = bytes[off + 2]! | 0x02;
  for (let i = 6; i < DNS_HEADER_SIZE; i++) bytes[off + i] = 0;
  return end - off;
}
