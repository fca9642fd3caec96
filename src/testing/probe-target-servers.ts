/**
 * Test helper: small servers on 127.0.0.1 (free ports) for health-probe tests — an HTTP server
 * whose status a test switches and whose requests it counts, a server that never answers, a TLS
 * server, a bare TCP listener — each closed by `close()`.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { KeyAndCert } from './self-signed-cert.ts';

export interface SwitchableHttpServer {
  readonly port: number;
  /** Status code answered from now on. */
  status: number;
  /**
   * Status answered to requests from a given source address instead of `status` (a network that
   * is broken for one prober only, e.g. one PoP's checker).
   */
  readonly statusFrom: Map<string, number>;
  /** Statuses answered in turn, one per request, round and round (a flapping origin); null: off. */
  cycle: number[] | null;
  /** Every request seen, in order; `at` is Date.now() on arrival, `from` the peer's address. */
  readonly requests: { method: string; url: string; host: string | undefined; from: string; at: number }[];
  close(): Promise<void>;
}

function listen(server: Server | TcpServer, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const a = server.address();
      resolve(typeof a === 'object' && a !== null ? a.port : 0);
    });
  });
}

function closer(server: Server | TcpServer, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

function track(server: Server | TcpServer): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return sockets;
}

/**
 * HTTP (or HTTPS with `tls`) answering `status`; 3xx answers carry a Location. `host` may be any
 * loopback address (127.0.0.2, ...) so several servers stand for distinct origin addresses.
 */
export async function startSwitchableServer(
  initialStatus = 200,
  tls?: KeyAndCert,
  host = '127.0.0.1',
): Promise<SwitchableHttpServer> {
  const state = {
    status: initialStatus,
    statusFrom: new Map<string, number>(),
    cycle: null as number[] | null,
    requests: [] as SwitchableHttpServer['requests'],
  };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const from = req.socket.remoteAddress ?? '';
    state.requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      host: req.headers.host,
      from,
      at: Date.now(),
    });
    const status =
      state.statusFrom.get(from) ??
      (state.cycle !== null ? state.cycle[(state.requests.length - 1) % state.cycle.length]! : state.status);
    const headers: Record<string, string> = { 'content-type': 'text/plain' };
    if (status >= 300 && status < 400) headers.location = '/elsewhere';
    res.writeHead(status, headers);
    res.end('x'.repeat(1000));
  };
  const server = tls
    ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler)
    : createHttpServer(handler);
  const sockets = track(server);
  const port = await listen(server, host);
  const close = closer(server, sockets);
  return Object.assign(state, { port, close }) as SwitchableHttpServer;
}

/** Accepts connections and reads requests but never answers. */
export async function startHangingServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createTcpServer((s) => s.on('data', () => {}));
  const sockets = track(server);
  return { port: await listen(server), close: closer(server, sockets) };
}

/** A bare TCP listener counting connections (closes each at once). */
export async function startTcpListener(): Promise<{
  port: number;
  readonly connections: number;
  close(): Promise<void>;
}> {
  let connections = 0;
  const server = createTcpServer((s) => {
    connections++;
    s.on('error', () => {});
    s.end();
  });
  const sockets = track(server);
  const port = await listen(server);
  return {
    port,
    get connections() {
      return connections;
    },
    close: closer(server, sockets),
  };
}
