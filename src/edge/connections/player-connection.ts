/**
 * One player's connection, from its first byte: an optional PROXY v2 header from a trusted load
 * balancer, the admission limits, then either the legacy ping of pre-1.7 clients or the handshake,
 * and after it the status exchange (answered here, from the cache or the upstream, always ending
 * with the pong) or the login (piped to the upstream, handshake replayed, PROXY v2 and the player's
 * address added when the route asks). Anything malformed closes the connection at once.
 */
import { connect, type Socket } from 'node:net';
import { FrameReader } from '../codec/frame-reader.ts';
import { MAX_HANDSHAKE_BYTES, parseHandshake, type Handshake } from '../codec/handshake.ts';
import { routingHost } from '../codec/host-name.ts';
import {
  LEGACY_PING_FIRST_BYTE,
  LEGACY_PING_MAX_BYTES,
  legacyPingResponse,
  parseLegacyPing,
} from '../codec/legacy-ping.ts';
import { PacketReader } from '../codec/packet-reader.ts';
import { handshakeFrame, loginDisconnect, pong, statusResponse } from '../codec/packet-writer.ts';
import { parseProxyV2, plainAddress, proxyV2Header } from '../codec/proxy-v2.ts';
import type { EdgeRoute, RouteTable } from '../routes/route-table.ts';
import {
  liveStatus,
  offlineStatus,
  unknownAddressStatus,
  type ServerStatus,
} from '../routes/status-answer.ts';
import type { ConnectionLimits } from './connection-limits.ts';
import type { EdgeCounters } from './edge-counters.ts';
import type { StatusCache } from './status-cache.ts';
import { upstreamStatus } from './upstream-status.ts';

export interface EdgeSettings {
  /** The server list's text for a name no route has, and the refusal of a login to it. */
  readonly unknownAddressText: string;
  readonly idleTimeoutMs: number;
  /** How long the edge waits for an upstream's status or connection. */
  readonly upstreamTimeoutMs: number;
  /** Whether a peer is a load balancer whose PROXY v2 header is believed. */
  readonly trustedProxy: (address: string) => boolean;
}

export interface EdgeContext {
  readonly settings: EdgeSettings;
  routes(): RouteTable;
  readonly cache: StatusCache;
  readonly limits: ConnectionLimits;
  readonly counters: EdgeCounters;
  now(): number;
  /**
   * A status response made from the cache for a cleaned host name and client protocol: the
   * listener may answer the same exchange itself while `status` stays the cache's fresh one.
   */
  offerStatus?(host: string, protocol: number, route: EdgeRoute, status: ServerStatus, frame: Buffer): void;
}

/** A connection accepted elsewhere (the native listener) with what was already read of it. */
export interface HandedOff {
  readonly first: Buffer;
  /** Milliseconds since it was accepted: the handshake timeout counts them. */
  readonly heldMs: number;
}

/** Before the handshake, a silent client is dropped sooner than an idle player. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** Pre-1.4 clients send 0xFE alone (1.4–1.5: 0xFE 0x01): answered once nothing more comes. */
const LEGACY_QUIET_MS = 150;

export function handlePlayer(socket: Socket, ctx: EdgeContext, handedOff?: HandedOff): void {
  const peer = { address: plainAddress(socket.remoteAddress ?? ''), port: socket.remotePort ?? 0 };
  socket.on('error', () => socket.destroy());
  socket.setTimeout(Math.max(1, HANDSHAKE_TIMEOUT_MS - (handedOff?.heldMs ?? 0)), () => socket.destroy());
  // Bytes read before the socket was ours come first, as its first 'data' event.
  if (handedOff !== undefined && handedOff.first.length > 0) socket.unshift(handedOff.first);
  const start = (first: Buffer): void => {
    const admitted = ctx.limits.admit(peer.address, ctx.now());
    if (admitted !== 'ok') {
      ctx.counters.connection(admitted === 'rate' ? 'rate_limited' : 'too_many');
      socket.destroy();
      return;
    }
    ctx.counters.active++;
    socket.once('close', () => {
      ctx.counters.active--;
      ctx.limits.release(peer.address);
    });
    if (first.length > 0 && first[0] === LEGACY_PING_FIRST_BYTE) legacyPing(socket, ctx, first);
    else new PlayerSession(socket, ctx, peer).read(first);
  };
  if (ctx.settings.trustedProxy(peer.address)) readProxyHeader(socket, peer, start);
  else socket.once('data', start);
}

/** A trusted balancer's PROXY v2 header: the player's address replaces the balancer's. */
function readProxyHeader(
  socket: Socket,
  peer: { address: string; port: number },
  then: (rest: Buffer) => void,
): void {
  let buf = Buffer.alloc(0);
  const onData = (chunk: Buffer): void => {
    buf = Buffer.concat([buf, chunk]);
    const parsed = parseProxyV2(buf);
    if (parsed === 'more' && buf.length < 536) return;
    socket.off('data', onData);
    if (parsed === 'more' || parsed === 'invalid') return void socket.destroy();
    if (parsed.addresses !== null) {
      peer.address = plainAddress(parsed.addresses.sourceAddress);
      peer.port = parsed.addresses.sourcePort;
    }
    const rest = buf.subarray(parsed.length);
    if (rest.length > 0) then(rest);
    else socket.once('data', then);
  };
  socket.on('data', onData);
}

function statusOf(route: EdgeRoute | null, protocol: number, ctx: EdgeContext): ServerStatus | null | 'ask' {
  if (route === null) return unknownAddressStatus(ctx.settings.unknownAddressText, protocol);
  const kept = ctx.cache.get(route.id, protocol, route.statusCacheTtlSeconds, ctx.now());
  if (kept?.fresh === true) {
    ctx.counters.statusCache.hit++;
    return liveStatus(kept.status, route);
  }
  return route.upstream === null ? offlineStatus(kept?.status ?? null, route, protocol) : 'ask';
}

/** Encoded answers of cached statuses, per kept status and the route they were made for (a hit encodes nothing). */
const encodedAnswers = new WeakMap<ServerStatus, { route: EdgeRoute; frame: Buffer }>();

/** The status response frame when it is at hand without asking the upstream (most pings), else null. */
function answerAtHand(
  route: EdgeRoute | null,
  protocol: number,
  ctx: EdgeContext,
  name: string,
): Buffer | null {
  if (route === null || route.upstream === null) {
    const known = statusOf(route, protocol, ctx);
    return known === 'ask' || known === null ? null : statusResponse(JSON.stringify(known));
  }
  const kept = ctx.cache.get(route.id, protocol, route.statusCacheTtlSeconds, ctx.now());
  if (kept?.fresh !== true) return null;
  ctx.counters.statusCache.hit++;
  const made = encodedAnswers.get(kept.status);
  if (made?.route === route) {
    ctx.offerStatus?.(name, protocol, route, kept.status, made.frame);
    return made.frame;
  }
  const frame = statusResponse(JSON.stringify(liveStatus(kept.status, route)));
  encodedAnswers.set(kept.status, { route, frame });
  ctx.offerStatus?.(name, protocol, route, kept.status, frame);
  return frame;
}

/** The status of a route now: the cache's while fresh, else the upstream's, else the last real one. */
async function routeStatus(
  route: EdgeRoute | null,
  h: { protocol: number; host: string; port: number },
  ctx: EdgeContext,
): Promise<ServerStatus> {
  const known = statusOf(route, h.protocol, ctx);
  if (known !== 'ask' && known !== null) return known;
  const r = route!;
  const answer = await upstreamStatus(r.upstream!, h, ctx.settings.upstreamTimeoutMs);
  if (answer !== null) {
    ctx.counters.statusCache.miss++;
    ctx.cache.put(r.id, h.protocol, answer, ctx.now());
    return liveStatus(answer, r);
  }
  ctx.counters.statusCache.stale++;
  return offlineStatus(ctx.cache.get(r.id, h.protocol, 0, ctx.now())?.status ?? null, r, h.protocol);
}

function legacyPing(socket: Socket, ctx: EdgeContext, first: Buffer): void {
  let buf = first;
  let quiet: NodeJS.Timeout | undefined;
  const answer = (host: string | null, port: number | null): void => {
    clearTimeout(quiet);
    socket.removeAllListeners('data');
    const route = host === null ? null : ctx.routes().find(routingHost(host));
    void routeStatus(route, { protocol: 78, host: host ?? '', port: port ?? 25565 }, ctx).then((s) => {
      ctx.counters.connection('legacy_status');
      const motd =
        typeof s.description === 'string'
          ? s.description
          : String((s.description as { text?: unknown } | undefined)?.text ?? '');
      socket.end(
        legacyPingResponse({
          version: s.version?.name ?? '',
          motd,
          online: s.players?.online ?? 0,
          max: s.players?.max ?? 0,
        }),
      );
    });
  };
  const look = (): void => {
    const parsed = parseLegacyPing(buf);
    if (parsed === null || buf.length > LEGACY_PING_MAX_BYTES) {
      ctx.counters.connection('malformed');
      return void socket.destroy();
    }
    if (parsed !== 'more') return answer(parsed.host, parsed.port);
    clearTimeout(quiet);
    if (buf.length <= 2) quiet = setTimeout(() => answer(null, null), LEGACY_QUIET_MS);
  };
  socket.on('data', (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    look();
  });
  look();
}

/**
 * Bytes of `from` written to `to` as they come, `from` paused while `to` is full, its end passed
 * on: what `pipe()` does, without the stream machinery it sets up per connection.
 */
function forward(from: Socket, to: Socket): void {
  const resume = (): void => void from.resume();
  from.on('data', (chunk: Buffer) => {
    if (!to.write(chunk)) {
      from.pause();
      to.once('drain', resume);
    }
  });
  // (end() on a destroyed socket makes an error object with its stack trace: not per connection.)
  from.once('end', () => void (to.destroyed || to.end()));
}

/** Read sizes of an upstream's bytes to its player: idle and game traffic, and a bulk download. */
const SMALL_READ = 4 * 1024;
const LARGE_READ = 128 * 1024;

/**
 * What an upstream sends, read into a buffer of the connection's own (node:net's `onread`) and
 * written to the player: the buffer is read into again once the player's socket took a chunk
 * whole at once (no allocation per read), replaced while the socket still holds it. It is 4 KiB
 * while reads are small (what an idle connection keeps) and grows to 128 KiB once a read fills
 * it (a download: fewer reads and writes a megabyte). The upstream is paused while the player's
 * socket is full (`false` from the callback), resumed on its drain.
 */
function downloadReads(player: () => Socket, upstream: () => Socket) {
  let buf = Buffer.allocUnsafe(SMALL_READ);
  const resume = (): void => void upstream().resume();
  return {
    buffer: (): Buffer => buf,
    callback: (n: number, read: Uint8Array): boolean => {
      const to = player();
      if (to.destroyed) return false;
      const size = read.length;
      const ok = to.write(read.subarray(0, n));
      if (n === size && size < LARGE_READ) buf = Buffer.allocUnsafeSlow(LARGE_READ);
      else if (n < size / 8 && size > SMALL_READ) buf = Buffer.allocUnsafe(SMALL_READ);
      else if (to.writableLength > 0)
        buf = size > SMALL_READ ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size);
      if (ok) return true;
      to.once('drain', resume);
      return false;
    },
  };
}

/** The status answer already written (or at hand): the pong needs no wait. */
const ANSWERED = Promise.resolve();

const NOTHING = Buffer.alloc(0);

class PlayerSession {
  private readonly reader = new FrameReader(MAX_HANDSHAKE_BYTES);
  private handshake: Handshake | null = null;
  private route: EdgeRoute | null = null;
  /** The handshake's host as routes know it (codec/host-name.ts). */
  private name = '';
  /** The status answer being made: the pong is written after it. */
  private answered: Promise<void> | null = null;
  /** A status answer at hand, written with the pong when the ping came in the same read. */
  private statusFrame: Buffer | null = null;
  private readonly onData = (chunk: Buffer): void => this.read(chunk);

  constructor(
    private readonly socket: Socket,
    private readonly ctx: EdgeContext,
    private readonly peer: { address: string; port: number },
  ) {
    socket.on('data', this.onData);
  }

  read(chunk: Buffer): void {
    if (chunk.length === 0) return;
    let more = chunk;
    if (this.handshake === null) {
      // The handshake alone first: what follows a proxied login is the game's, not ours to frame.
      const [first] = this.reader.push(chunk, 1);
      if (this.reader.error !== null) return this.malformed();
      if (first === undefined || !this.onHandshake(first)) return;
      if (this.handshake!.nextState !== 'status' && this.route !== null && this.route.mode === 'proxy') {
        // Login or transfer to a proxied route: everything after the handshake goes upstream as sent.
        return this.pipe(this.reader.rest());
      }
      more = NOTHING;
    }
    const frames = this.reader.push(more);
    if (this.reader.error !== null) return this.malformed();
    for (let i = 0; i < frames.length; i++) {
      if (this.socket.destroyed) return;
      if (this.handshake!.nextState === 'status') this.onStatusFrame(frames[i]!);
      else this.refuseLogin(frames[i]!);
    }
    if (this.statusFrame !== null && !this.socket.destroyed) this.socket.write(this.statusFrame);
    this.statusFrame = null;
  }

  private malformed(): void {
    this.ctx.counters.connection('malformed');
    this.socket.destroy();
  }

  private onHandshake(f: Buffer): boolean {
    const h = parseHandshake(f);
    if (h === null) {
      this.malformed();
      return false;
    }
    this.handshake = h;
    this.name = routingHost(h.host);
    this.route = this.ctx.routes().find(this.name);
    return true;
  }

  private onStatusFrame(f: Buffer): void {
    const r = new PacketReader(f);
    const id = r.varInt();
    if (id === 0x00 && r.remaining === 0 && this.answered === null) {
      this.statusFrame = answerAtHand(this.route, this.handshake!.protocol, this.ctx, this.name);
      this.answered =
        this.statusFrame !== null
          ? ANSWERED
          : routeStatus(this.route, this.handshake!, this.ctx).then((s) => {
              if (this.socket.destroyed) return;
              // Held for this tick: a pong already due goes out in the same write.
              this.socket.cork();
              this.socket.write(statusResponse(JSON.stringify(s)));
              process.nextTick(() => this.socket.uncork());
            });
    } else if (id === 0x01) {
      const payload = r.long();
      if (!r.ok || r.remaining !== 0) return this.malformed();
      this.ctx.counters.connection('status');
      if (this.statusFrame !== null) {
        // Request and ping in one read: one write for both answers.
        this.socket.end(Buffer.concat([this.statusFrame, pong(payload)]));
        this.statusFrame = null;
      } else if (this.answered === null || this.answered === ANSWERED) this.socket.end(pong(payload));
      else void this.answered.then(() => this.socket.end(pong(payload)));
    } else this.malformed();
  }

  private refuseLogin(f: Buffer): void {
    void f;
    this.ctx.counters.connection(this.route === null ? 'unknown_host' : 'refused_login');
    const text =
      this.route === null
        ? this.ctx.settings.unknownAddressText
        : 'This address shows a server list entry only';
    this.socket.end(loginDisconnect(text));
  }

  private pipe(rest: Buffer): void {
    const route = this.route!;
    const h = this.handshake!;
    this.socket.off('data', this.onData);
    this.socket.pause();
    const up: Socket = connect({
      host: route.upstream!.host,
      port: route.upstream!.port,
      onread: downloadReads(
        () => this.socket,
        () => up,
      ),
    });
    // Game packets are small and latency-bound; a status answer is written whole, so it needs no option call.
    this.socket.setNoDelay(true);
    up.setNoDelay(true);
    const close = (): void => {
      this.socket.destroy();
      up.destroy();
    };
    up.setTimeout(this.ctx.settings.upstreamTimeoutMs, () => {
      this.ctx.counters.connection('upstream_unreachable');
      this.socket.end(loginDisconnect('The server cannot be reached right now'));
      up.destroy();
    });
    up.once('error', () => {
      if (up.connecting || up.bytesWritten === 0) {
        this.ctx.counters.connection('upstream_unreachable');
        this.socket.end(loginDisconnect('The server cannot be reached right now'));
      } else close();
    });
    up.once('connect', () => {
      up.setTimeout(0);
      this.ctx.counters.connection('routed');
      const host = route.realIp
        ? `${h.host}///${this.peer.address}:${this.peer.port}///${Math.floor(this.ctx.now() / 1000)}`
        : h.host;
      const head = route.proxyProtocol
        ? proxyV2Header({
            sourceAddress: this.peer.address,
            sourcePort: this.peer.port,
            destinationAddress: this.socket.localAddress ?? '0.0.0.0',
            destinationPort: this.socket.localPort ?? 0,
          })
        : Buffer.alloc(0);
      up.write(Buffer.concat([head, handshakeFrame({ ...h, host }), rest]));
      this.socket.setTimeout(this.ctx.settings.idleTimeoutMs, close);
      up.setTimeout(this.ctx.settings.idleTimeoutMs, close);
      forward(this.socket, up);
      // (Its bytes go to the player through `onread` above.)
      up.once('end', () => void (this.socket.destroyed || this.socket.end()));
      this.socket.resume();
    });
    const count = (): void => {
      this.ctx.counters.bytes.in += this.socket.bytesRead;
      this.ctx.counters.bytes.out += this.socket.bytesWritten;
    };
    // A side that ended cleanly had its end passed on (forward): what the other still holds for it
    // (a kick message after the last chunks) is flushed first. A broken side takes the other with it.
    this.socket.once('close', (broken) => {
      count();
      if (broken) up.destroy();
      else if (!up.destroyed) up.end();
    });
    up.once('close', (broken) => {
      if (broken) this.socket.destroy();
      else if (!this.socket.destroyed) this.socket.end();
    });
  }
}
