/**
 * The edge's listener: a TCP server handing each player's connection to connections/, over the
 * route table it is given (swapped whole when routes change), a status cache and limits of its own.
 *
 * With the native accept addon (native/src/edge-accept.c; off with EDGE_NATIVE=0 or when it is not
 * built) the listening socket is the addon's: it answers server list pings whose response this
 * module published (a fresh cached status of a route, per cleaned host name and protocol) in C,
 * after asking `onAdmit` here (limits, trusted balancers, freshness, counters), and hands every
 * other connection over as a descriptor with the bytes it read, which then goes through the same
 * code as a node:net connection.
 */
import { closeSync } from 'node:fs';
import { createServer, Socket, type Server } from 'node:net';
import { plainAddress } from '../codec/proxy-v2.ts';
import { ConnectionLimits, type ConnectionLimitSettings } from '../connections/connection-limits.ts';
import { EdgeCounters } from '../connections/edge-counters.ts';
import { handlePlayer, type EdgeContext, type EdgeSettings } from '../connections/player-connection.ts';
import { StatusCache } from '../connections/status-cache.ts';
import { RouteTable, type EdgeRoute } from '../routes/route-table.ts';
import type { ServerStatus } from '../routes/status-answer.ts';
import {
  loadEdgeAcceptAddon,
  NATIVE_ANSWER,
  NATIVE_HANDOFF,
  NATIVE_REFUSE,
  type EdgeAcceptAddon,
} from './edge-accept-native.ts';

export interface EdgeServerOptions extends EdgeSettings {
  readonly host: string;
  readonly port: number;
  readonly limits: ConnectionLimitSettings;
  readonly now?: () => number;
  /** The native listener when it is built (default true; EDGE_NATIVE=0 in the environment also turns it off). */
  readonly native?: boolean;
}

export interface EdgeServer {
  readonly port: number;
  readonly counters: EdgeCounters;
  /** Whether the native listener accepts (else node:net). */
  readonly native: boolean;
  /** Routes from now on (new connections; open ones keep their upstream). */
  setRoutes(table: RouteTable): void;
  routes(): RouteTable;
  close(): Promise<void>;
}

const SWEEP_MS = 60_000;
const BACKLOG = 511;
/** Responses the native listener holds at most (one per host name and protocol answered). */
const MAX_PUBLISHED = 65_536;

interface Published {
  readonly table: RouteTable;
  readonly route: EdgeRoute;
  readonly protocol: number;
  readonly status: ServerStatus;
}

export async function startEdgeServer(options: EdgeServerOptions): Promise<EdgeServer> {
  let table = new RouteTable([]);
  const counters = new EdgeCounters();
  const cache = new StatusCache();
  const limits = new ConnectionLimits(options.limits);
  const now = options.now ?? Date.now;
  const sockets = new Set<Socket>();
  const sweep = setInterval(() => limits.sweep(now()), SWEEP_MS);
  sweep.unref();
  const ctx: EdgeContext = { settings: options, routes: () => table, cache, limits, counters, now };
  const take = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const native = await listenNative(options, ctx, take);
  let server: Server | null = null;
  if (native === null) {
    server = createServer((socket) => {
      take(socket);
      handlePlayer(socket, ctx);
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(options.port, options.host, () => resolve());
    });
  }
  const address = server?.address();
  const port =
    native?.port ?? (typeof address === 'object' && address !== null ? address.port : options.port);
  return {
    port,
    counters,
    native: native !== null,
    setRoutes(next) {
      for (const id of routeIds(table)) if (!routeIds(next).has(id)) cache.forgetRoute(id);
      table = next;
      native?.forget();
    },
    routes: () => table,
    async close() {
      clearInterval(sweep);
      const closed = server === null ? native!.close() : new Promise<void>((r) => server!.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

interface NativeListener {
  readonly port: number;
  /** Drops the published responses (the routes changed). */
  forget(): void;
  close(): Promise<void>;
}

/** The native listener, or null (no addon, EDGE_NATIVE=0, a host that is no IP address). */
async function listenNative(
  options: EdgeServerOptions,
  ctx: EdgeContext,
  take: (socket: Socket) => void,
): Promise<NativeListener | null> {
  const addon: EdgeAcceptAddon | null = options.native === false ? null : loadEdgeAcceptAddon();
  if (addon === null) return null;
  let listener;
  try {
    listener = addon.listen(options.host, options.port, BACKLOG);
  } catch (error) {
    if (error instanceof TypeError) return null; // a host name: node:net resolves it
    throw error;
  }
  const { handle } = listener;
  const published = new Map<number, Published>();
  const byKey = new Map<string, number>();
  let nextId = 1;
  const forget = (): void => {
    published.clear();
    byKey.clear();
    addon.clear(handle);
  };
  ctx.offerStatus = (host, protocol, route, status, frame) => {
    const key = `${protocol} ${host}`;
    const held = byKey.get(key);
    if (held !== undefined) {
      const p = published.get(held)!;
      if (p.status === status && p.route === route) return;
      published.delete(held);
    } else if (byKey.size >= MAX_PUBLISHED || Buffer.byteLength(host) > 255) return;
    if (nextId >= 0x7fffffff) {
      forget();
      nextId = 1;
    }
    const id = nextId++;
    published.set(id, { table: ctx.routes(), route, protocol, status });
    byKey.set(key, id);
    addon.publish(handle, host, protocol, frame, id);
  };
  const onAdmit = (address: string, id: number): number => {
    const p = published.get(id);
    if (p === undefined || p.table !== ctx.routes()) return NATIVE_HANDOFF;
    const peer = plainAddress(address);
    if (options.trustedProxy(peer)) return NATIVE_HANDOFF;
    const at = ctx.now();
    const kept = ctx.cache.get(p.route.id, p.protocol, p.route.statusCacheTtlSeconds, at);
    if (kept === null || !kept.fresh || kept.status !== p.status) return NATIVE_HANDOFF;
    const admitted = ctx.limits.admit(peer, at);
    if (admitted !== 'ok') {
      ctx.counters.connection(admitted === 'rate' ? 'rate_limited' : 'too_many');
      return NATIVE_REFUSE;
    }
    // Answered and closed within this call's event: the address holds it no longer.
    ctx.limits.release(peer);
    ctx.counters.statusCache.hit++;
    ctx.counters.connection('status');
    ctx.counters.nativeAnswers++;
    return NATIVE_ANSWER;
  };
  const onHandoff = (fd: number, first: Buffer, heldMs: number): void => {
    let socket: Socket;
    try {
      socket = new Socket({ fd, readable: true, writable: true });
    } catch {
      closeSync(fd);
      return;
    }
    take(socket);
    handlePlayer(socket, ctx, { first, heldMs });
  };
  addon.start(handle, onAdmit, onHandoff, () => ctx.counters.connection('malformed'));
  return {
    port: listener.port,
    forget,
    close: () => new Promise<void>((r) => addon.close(handle, r)),
  };
}

function routeIds(table: RouteTable): Set<number> {
  return new Set(table.ids());
}
