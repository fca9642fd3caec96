/**
 * What the socket listeners share: the handler signature, the limits and the client-address
 * normalisation. The listeners pass bytes to the handler and send back bytes; they never see zones.
 */
import type { TransferHandler } from '../transfer/transfer-handler.ts';
import type { ClientInfo, DnsSlotHandler, MessageOutcome } from './handle-message.ts';
import type { QueryStats } from './query-stats.ts';
import type { ResponseRateLimiter } from './response-rate-limit.ts';

export type { DnsSlotHandler } from './handle-message.ts';

/** Returns the response bytes, or null for "send nothing". Must not throw (we guard anyway). */
export type DnsHandler = (query: Uint8Array, client: ClientInfo, out: MessageOutcome) => Buffer | null;

/** A DnsSlotHandler over a plain handler (one Buffer per answer, copied into the slot). */
export function slotHandlerOf(handler: DnsHandler): DnsSlotHandler {
  return (src, off, len, client, out, dst, dstOff, max) => {
    const res = handler(src.subarray(off, off + len), client, out);
    if (res === null || res.length > max) return -1;
    dst.set(res, dstOff);
    return res.length;
  };
}

/** Knot's default `tcp-idle-timeout` (RFC 7766 §6.2.3 recommends seconds, not minutes). */
export const DEFAULT_TCP_IDLE_TIMEOUT_MS = 10_000;
/** Knot's default `tcp-max-clients` is of this order; beyond it new connections are closed. */
export const DEFAULT_MAX_TCP_CONNECTIONS = 1024;
/** RFC 7766 §6.2.2: a client should use few connections; cap what one address may hold open. */
export const DEFAULT_MAX_TCP_CONNECTIONS_PER_CLIENT = 16;
/** RFC 1035 §4.2.2: the 2-byte length prefix bounds a TCP message at 65535 bytes. */
export const MAX_TCP_MESSAGE_SIZE = 0xffff;
/** RFC 1035 §4.1.1: nothing shorter than a header is a DNS message. */
export const DNS_HEADER_SIZE = 12;
/** Socket receive/send buffer asked of the kernel for UDP (best effort). */
export const UDP_SOCKET_BUFFER_BYTES = 4 * 1024 * 1024;

export interface ServerLimits {
  tcpIdleTimeoutMs: number;
  maxTcpConnections: number;
  maxTcpConnectionsPerClient: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  tcpIdleTimeoutMs: DEFAULT_TCP_IDLE_TIMEOUT_MS,
  maxTcpConnections: DEFAULT_MAX_TCP_CONNECTIONS,
  maxTcpConnectionsPerClient: DEFAULT_MAX_TCP_CONNECTIONS_PER_CLIENT,
};

export interface ListenerContext {
  handler: DnsHandler;
  /** The UDP batch path's entry; absent: slotHandlerOf(handler). */
  slotHandler?: DnsSlotHandler | null;
  rrl: ResponseRateLimiter | null;
  stats: QueryStats | null;
  limits: ServerLimits;
  /** Zone transfers out (TCP only); null or absent: AXFR/IXFR go to the normal handler. */
  transfer?: TransferHandler | null;
}

const MAPPED_PREFIX = '::ffff:';

/**
 * Sets `client.address`/`family` from a socket address, turning IPv4-mapped IPv6
 * (RFC 4291 §2.5.5.2, what a dual-stack socket reports for IPv4 peers) into plain IPv4.
 */
export function setClientAddress(client: ClientInfo, address: string, ipv6: boolean): void {
  if (
    ipv6 &&
    address.length > MAPPED_PREFIX.length &&
    address.startsWith(MAPPED_PREFIX) &&
    address.includes('.')
  ) {
    client.address = address.slice(MAPPED_PREFIX.length);
    client.family = 4;
  } else {
    client.address = address;
    client.family = ipv6 ? 6 : 4;
  }
}
