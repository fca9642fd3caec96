/**
 * Starts the UDP and TCP listeners of an authoritative server on one host:port
 * (RFC 1035 §4.2; RFC 7766 §5: TCP must be offered wherever UDP is).
 * Port 0 picks one free port that is bound for both protocols.
 */
import type { TransferHandler } from '../transfer/transfer-handler.ts';
import type { QueryStats } from './query-stats.ts';
import { DEFAULT_SERVER_LIMITS } from './listener-options.ts';
import type { DnsHandler, DnsSlotHandler, ListenerContext, ServerLimits } from './listener-options.ts';
import { createResponseRateLimiter } from './response-rate-limit.ts';
import type { ResponseRateLimiter, RrlOptions } from './response-rate-limit.ts';
import { bindTcp } from './tcp-listener.ts';
import type { TcpListener } from './tcp-listener.ts';
import { bindUdpBatch } from './udp-batch-listener.ts';
import { loadUdpBatchAddon } from './udp-batch-native.ts';
import { bindUdp } from './udp-listener.ts';
import type { UdpListener } from './udp-listener.ts';

/** Attempts at finding a port free for both UDP and TCP when port 0 is asked for. */
export const MAX_PORT_PICK_ATTEMPTS = 20;

export interface DnsServerOptions {
  /** `::` serves IPv4 and IPv6 (dual stack); `0.0.0.0` IPv4 only. */
  host: string;
  port: number;
  handler: DnsHandler;
  /** The UDP batch path's entry (e.g. MessageHandlers.handleSlot, with its answer cache); default: over `handler`. */
  slotHandler?: DnsSlotHandler | null;
  /** A limiter, its options (`{ rate: 0 }` disables) or null for none. */
  rrl: ResponseRateLimiter | RrlOptions | null;
  stats?: QueryStats;
  limits?: Partial<ServerLimits>;
  /**
   * Serve UDP through the native recvmmsg/sendmmsg addon on a SO_REUSEPORT socket when it is
   * built and loads (native/); otherwise, or when false (default), through node:dgram.
   */
  nativeUdp?: boolean;
  /**
   * How many processes share the port (DNS workers): above 1, the native path steers datagrams by
   * source network so one client network always reaches one worker (see bindUdpBatch).
   */
  udpSteerGroup?: number;
  /** Zone transfers out over TCP (AXFR/IXFR, signed SOA); absent: none. */
  transfer?: TransferHandler;
}

export interface DnsServer {
  readonly udpPort: number;
  /** Which UDP path serves: the native batch addon or node:dgram. */
  readonly udpPath: 'native' | 'dgram';
  readonly tcpPort: number;
  /** Open TCP connections (tests, metrics). */
  tcpConnectionCount(): number;
  close(): Promise<void>;
}

function isLimiter(x: ResponseRateLimiter | RrlOptions): x is ResponseRateLimiter {
  return typeof (x as ResponseRateLimiter).decide === 'function';
}

function isAddrInUse(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'EADDRINUSE';
}

export async function startDnsServer(opts: DnsServerOptions): Promise<DnsServer> {
  const ctx: ListenerContext = {
    handler: opts.handler,
    slotHandler: opts.slotHandler ?? null,
    rrl: opts.rrl === null ? null : isLimiter(opts.rrl) ? opts.rrl : createResponseRateLimiter(opts.rrl),
    stats: opts.stats ?? null,
    limits: { ...DEFAULT_SERVER_LIMITS, ...opts.limits },
    transfer: opts.transfer ?? null,
  };
  let tcp: TcpListener | null = null;
  let udp: UdpListener | null = null;
  const addon = opts.nativeUdp === true ? loadUdpBatchAddon() : null;
  const attempts = opts.port === 0 ? MAX_PORT_PICK_ATTEMPTS : 1;
  for (let attempt = 1; udp === null; attempt++) {
    tcp = await bindTcp(opts.host, opts.port, ctx);
    try {
      udp =
        addon !== null
          ? bindUdpBatch(addon, opts.host, tcp.port, ctx, opts.udpSteerGroup ?? 1)
          : await bindUdp(opts.host, tcp.port, ctx);
    } catch (err) {
      await tcp.close();
      if (!isAddrInUse(err) || attempt >= attempts) throw err;
    }
  }
  const t = tcp as TcpListener;
  const u = udp;
  let closing: Promise<void> | null = null;
  return {
    udpPort: u.port,
    udpPath: addon !== null ? 'native' : 'dgram',
    tcpPort: t.port,
    tcpConnectionCount: () => t.connectionCount(),
    close: () => {
      closing ??= Promise.all([u.close(), t.close()]).then(() => undefined);
      return closing;
    },
  };
}
