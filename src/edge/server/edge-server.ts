/**
 * The edge's listener: a TCP server handing each player's connection to connections/, over the
 * route table it is given (swapped whole when routes change), a status cache and limits of its own.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { ConnectionLimits, type ConnectionLimitSettings } from '../connections/connection-limits.ts';
import { EdgeCounters } from '../connections/edge-counters.ts';
import { handlePlayer, type EdgeSettings } from '../connections/player-connection.ts';
import { StatusCache } from '../connections/status-cache.ts';
import { RouteTable } from '../routes/route-table.ts';

export interface EdgeServerOptions extends EdgeSettings {
  readonly host: string;
  readonly port: number;
  readonly limits: ConnectionLimitSettings;
  readonly now?: () => number;
}

export interface EdgeServer {
  readonly port: number;
  readonly counters: EdgeCounters;
  /** Routes from now on (new connections; open ones keep their upstream). */
  setRoutes(table: RouteTable): void;
  routes(): RouteTable;
  close(): Promise<void>;
}

const SWEEP_MS = 60_000;

export async function startEdgeServer(options: EdgeServerOptions): Promise<EdgeServer> {
  let table = new RouteTable([]);
  const counters = new EdgeCounters();
  const cache = new StatusCache();
  const limits = new ConnectionLimits(options.limits);
  const now = options.now ?? Date.now;
  const ctx = { settings: options, routes: () => table, cache, limits, counters, now };
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    handlePlayer(socket, ctx);
  });
  const sweep = setInterval(() => limits.sweep(now()), SWEEP_MS);
  sweep.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : options.port,
    counters,
    setRoutes(next) {
      for (const id of routeIds(table)) if (!routeIds(next).has(id)) cache.forgetRoute(id);
      table = next;
    },
    routes: () => table,
    async close() {
      clearInterval(sweep);
      const closed = new Promise<void>((r) => server.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

function routeIds(table: RouteTable): Set<number> {
  return new Set(table.ids());
}
