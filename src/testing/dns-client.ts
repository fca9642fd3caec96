/**
 * Test/bench DNS client: sends raw query bytes over UDP (timeout + retry) or TCP (RFC 1035
 * §4.2.2 framing) and returns the raw response and its dns-packet decoding (null if it does
 * not decode). A missing answer is `response: null`, not an error, because "no answer" is a
 * legitimate outcome to compare (e.g. for malformed queries).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';
import type { Packet } from 'dns-packet';

export const DEFAULT_UDP_TIMEOUT_MS = 1000;
export const DEFAULT_UDP_RETRIES = 2;
export const DEFAULT_TCP_TIMEOUT_MS = 3000;
/** Largest datagram we accept back. */
const MAX_UDP_RESPONSE = 65535;

export interface DnsExchange {
  response: Buffer | null;
  decoded: Packet | null;
}

export interface UdpQueryOptions {
  host: string;
  port: number;
  timeoutMs?: number;
  retries?: number;
  /** Local address to send from (e.g. 127.0.5.1: another client network on loopback). */
  source?: string;
}

export function decodeOrNull(buf: Buffer | null): Packet | null {
  if (buf === null) return null;
  try {
    return dnsPacket.decode(buf);
  } catch {
    return null;
  }
}

/** Sends `query` over UDP; waits for a datagram whose ID matches (when the query has one). */
export async function queryUdp(query: Uint8Array, opts: UdpQueryOptions): Promise<DnsExchange> {
  const tries = 1 + (opts.retries ?? DEFAULT_UDP_RETRIES);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_UDP_TIMEOUT_MS;
  const family = net.isIPv6(opts.host) ? 'udp6' : 'udp4';
  const socket = dgram.createSocket(family);
  if (opts.source !== undefined) {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, opts.source, () => {
        socket.off('error', reject);
        resolve();
      });
    });
  }
  try {
    for (let i = 0; i < tries; i++) {
      const got = await new Promise<Buffer | null>((resolve) => {
        const timer = setTimeout(() => {
          socket.off('message', onMessage);
          resolve(null);
        }, timeoutMs);
        function onMessage(msg: Buffer): void {
          if (msg.length > MAX_UDP_RESPONSE) return;
          if (query.length >= 2 && msg.length >= 2 && (msg[0] !== query[0] || msg[1] !== query[1])) return;
          clearTimeout(timer);
          socket.off('message', onMessage);
          resolve(msg);
        }
        socket.on('message', onMessage);
        socket.send(query, opts.port, opts.host);
      });
      if (got !== null) return { response: got, decoded: decodeOrNull(got) };
    }
    return { response: null, decoded: null };
  } finally {
    socket.close();
  }
}

export interface TcpQueryOptions {
  host: string;
  port: number;
  timeoutMs?: number;
}

/**
 * Sends each of `queries` framed on one connection (pipelined) and collects up to
 * `queries.length` responses in arrival order. Stops early when the server closes or on timeout.
 * `raw` bytes are written as they are (no framing) when given instead of queries. With
 * `stopOnId`, collection also ends at the first response carrying that message ID.
 */
export function queryTcpMany(
  queries: readonly Uint8Array[],
  opts: TcpQueryOptions & { raw?: Uint8Array; expect?: number; stopOnId?: number },
): Promise<Buffer[]> {
  const expect = opts.expect ?? queries.length;
  return new Promise((resolve) => {
    const responses: Buffer[] = [];
    let pending = Buffer.alloc(0);
    const sock = net.connect({ host: opts.host, port: opts.port });
    const finish = (): void => {
      clearTimeout(timer);
      sock.destroy();
      resolve(responses);
    };
    const timer = setTimeout(finish, opts.timeoutMs ?? DEFAULT_TCP_TIMEOUT_MS);
    sock.on('error', finish);
    sock.on('close', finish);
    sock.on('connect', () => {
      if (opts.raw !== undefined) sock.write(opts.raw);
      else
        for (const q of queries) {
          const frame = Buffer.alloc(q.length + 2);
          frame.writeUInt16BE(q.length, 0);
          frame.set(q, 2);
          sock.write(frame);
        }
      if (expect === 0) finish();
    });
    sock.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2) {
        const len = pending.readUInt16BE(0);
        if (pending.length < len + 2) break;
        const res = Buffer.from(pending.subarray(2, len + 2));
        responses.push(res);
        pending = pending.subarray(len + 2);
        if (opts.stopOnId !== undefined && res.length >= 2 && res.readUInt16BE(0) === opts.stopOnId)
          return finish();
      }
      if (responses.length >= expect) finish();
    });
  });
}

export async function queryTcp(query: Uint8Array, opts: TcpQueryOptions): Promise<DnsExchange> {
  const [res] = await queryTcpMany([query], opts);
  const response = res ?? null;
  return { response, decoded: decodeOrNull(response) };
}
