import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { ExemptList } from './exempt-list.ts';

/** The proxy layer's figures (docs/keys-and-limits.md, "Limits"). */
export const PROXY_RATE_PER_S = 200;
export const PROXY_BURST = 400;
export const PROXY_MAX_CONNECTIONS = 128;
export const PROXY_BLOCK_AFTER_REFUSALS = 8;
export const PROXY_BLOCK_MS = 5 * 60_000;
/** Idle addresses are forgotten after this long (a full bucket and no block to remember). */
const IDLE_FORGET_MS = 60_000;

interface Peer {
  tokens: number;
  atMs: number;
  refusedInRow: number;
  blockedUntilMs: number;
  connections: number;
}

/** The peers the proxy limits never touch (LIMITS_EXEMPT: benchmarks, an office). */
export function exemptList(entries: readonly string[]): ExemptList {
  return new ExemptList(entries);
}

/**
 * The proxy-layer limits, as the first layer of every process that serves the API:
 * per client address, 200 requests a second with bursts to 400 (a token bucket) → 429
 * `{"error":"Too many requests"}` with `Retry-After: 1`; at most 128 open connections (a new one
 * is closed without an answer); after 8 refused requests in a row, 5 minutes in which every
 * request answers 429 and new connections are closed. Counted in this process, as a proxy counts
 * what reaches it (connections cannot be counted anywhere else), on the injected clock.
 */
export class ProxyLimits {
  private readonly peers = new Map<string, Peer>();
  private sweepAtMs = 0;

  constructor(
    private readonly clock: Clock,
    private readonly exempt: ExemptList,
  ) {}

  install(app: FastifyInstance): void {
    app.server.on('connection', (socket: Socket) => this.onConnection(socket));
    app.addHook('onRequest', (request, reply, done) => {
      if (this.admit(request, reply)) done();
    });
  }

  private peer(ip: string, now: number): Peer {
    let p = this.peers.get(ip);
    if (p === undefined) {
      p = { tokens: PROXY_BURST, atMs: now, refusedInRow: 0, blockedUntilMs: 0, connections: 0 };
      this.peers.set(ip, p);
    }
    if (now >= this.sweepAtMs) this.sweep(now);
    return p;
  }

  private onConnection(socket: Socket): void {
    const ip = socket.remoteAddress ?? '';
    if (this.exempt.has(ip)) return;
    const p = this.peer(ip, this.clock.now());
    if (p.blockedUntilMs > this.clock.now() || p.connections >= PROXY_MAX_CONNECTIONS) {
      socket.destroy();
      return;
    }
    p.connections++;
    socket.once('close', () => {
      p.connections--;
    });
  }

  /** true: go on; false: answered 429 here. */
  private admit(request: FastifyRequest, reply: FastifyReply): boolean {
    const ip = request.ip;
    if (this.exempt.has(ip)) return true;
    const now = this.clock.now();
    const p = this.peer(ip, now);
    if (p.blockedUntilMs > now) {
      this.refuse(reply, Math.ceil((p.blockedUntilMs - now) / 1000));
      return false;
    }
    p.tokens = Math.min(PROXY_BURST, p.tokens + ((now - p.atMs) * PROXY_RATE_PER_S) / 1000);
    p.atMs = now;
    if (p.tokens >= 1) {
      p.tokens -= 1;
      p.refusedInRow = 0;
      return true;
    }
    if (++p.refusedInRow >= PROXY_BLOCK_AFTER_REFUSALS) p.blockedUntilMs = now + PROXY_BLOCK_MS;
    this.refuse(reply, 1);
    return false;
  }

  private refuse(reply: FastifyReply, retryAfterS: number): void {
    void reply
      .code(429)
      .header('retry-after', String(retryAfterS))
      .header('x-error-code', 'limits.proxy')
      .type('application/json; charset=utf-8')
      // The proxy's own body, not the route's: past the route's serializer.
      .serializer(JSON.stringify)
      .send({ error: 'Too many requests' });
  }

  private sweep(now: number): void {
    this.sweepAtMs = now + IDLE_FORGET_MS;
    for (const [ip, p] of this.peers) {
      const full = p.tokens + ((now - p.atMs) * PROXY_RATE_PER_S) / 1000 >= PROXY_BURST;
      if (full && p.connections === 0 && p.blockedUntilMs <= now && now - p.atMs > IDLE_FORGET_MS)
        this.peers.delete(ip);
    }
  }
}
