/**
 * The peers of the edge benchmark (bench/edge-suite.ts), in the bench process: upstreams that do
 * one thing each, and players that open connections through a proxy (ours or haproxy) in closed
 * loops. Every player speaks Java Edition framing, so the same bytes go through either proxy.
 */
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { FrameReader, frame, handshakeFrame, statusResponse, stringField } from '../src/edge/index.ts';

export interface Upstream {
  readonly port: number;
  /** Connections open now. */
  open(): number;
  close(): Promise<void>;
}

type Behaviour = (s: Socket) => void;

async function listen(behaviour: Behaviour): Promise<Upstream> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
    behaviour(s);
  });
  server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 });
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    open: () => sockets.size,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Answers the first bytes of a connection with one byte, then closes (the connection-rate workload). */
export const firstByteUpstream = (): Promise<Upstream> => listen((s) => s.once('data', () => s.end('x')));

/** Sends `total` bytes once the client's first bytes came, in 64 KiB writes with back-pressure, then closes. */
export const bulkUpstream = (total: number): Promise<Upstream> =>
  listen((s) =>
    s.once('data', () => {
      const chunk = Buffer.alloc(64 * 1024, 0x2a);
      let sent = 0;
      const more = (): void => {
        while (sent < total) {
          const n = Math.min(chunk.length, total - sent);
          sent += n;
          if (!s.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void s.once('drain', more);
        }
        s.end();
      };
      more();
    }),
  );

/** Holds connections open and reads what comes (an idle game server). */
export const idleUpstream = (): Promise<Upstream> => listen((s) => s.resume());

/** The status the bench's upstream answers. */
export const BENCH_STATUS = {
  version: { name: '1.21.4', protocol: 769 },
  players: { max: 100, online: 37, sample: [] },
  description: { text: 'A Minecraft server behind the edge' },
};

/** Answers a status request as a server does (the edge asks it once, then answers from its cache). */
export const statusUpstream = (): Promise<Upstream> =>
  listen((s) => s.once('data', () => s.end(statusResponse(JSON.stringify(BENCH_STATUS)))));

/** What a player's client sends to join: the handshake (next state login) and Login Start. */
export function loginBytes(host: string): Buffer {
  return Buffer.concat([
    handshakeFrame({ protocol: 769, host, port: 25565, nextState: 'login' }),
    frame(0x00, Buffer.concat([stringField('BenchPlayer'), Buffer.alloc(16)])),
  ]);
}

/** A server list ping: handshake (next state status), status request, ping. */
export function statusBytes(host: string): Buffer {
  return Buffer.concat([
    handshakeFrame({ protocol: 769, host, port: 25565, nextState: 'status' }),
    frame(0x00, Buffer.alloc(0)),
    frame(0x01, Buffer.alloc(8)),
  ]);
}

export interface LoopFigures {
  /** Exchanges completed. */
  readonly completed: number;
  readonly failed: number;
  readonly seconds: number;
  /** Median milliseconds from connect() to the answer's last awaited byte. */
  readonly medianMs: number;
}

/**
 * `concurrency` players in closed loops for `seconds`: connect, write `bytes`, wait until the
 * connection's `done()` check holds for what came back (or the peer closed), reset it, again.
 */
export async function closedLoop(
  port: number,
  bytes: Buffer,
  options: {
    concurrency: number;
    seconds: number;
    done: () => (got: number, chunk: Buffer) => boolean;
    /** Close with a reset (no TIME_WAIT left on the player's side) instead of a FIN, as a game client does. */
    reset: boolean;
  },
): Promise<LoopFigures> {
  const until = performance.now() + options.seconds * 1000;
  const samples: number[] = [];
  let completed = 0;
  let failed = 0;
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const s = connect({ host: '127.0.0.1', port, noDelay: true });
      const done = options.done();
      let got = 0;
      let finished = false;
      const finish = (ok: boolean): void => {
        if (finished) return;
        finished = true;
        if (ok) {
          completed++;
          if (samples.length < 100_000) samples.push(performance.now() - t0);
        } else failed++;
        if (options.reset) s.resetAndDestroy();
        else s.destroy();
        resolve();
      };
      s.once('connect', () => s.write(bytes));
      s.on('data', (d: Buffer) => {
        got += d.length;
        if (done(got, d)) finish(true);
      });
      s.on('error', () => finish(false));
      s.on('close', () => finish(false));
    });
  const worker = async (): Promise<void> => {
    while (performance.now() < until) await one();
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  samples.sort((a, b) => a - b);
  return { completed, failed, seconds, medianMs: samples[samples.length >> 1] ?? NaN };
}

/** One player downloading: MiB/s from the first byte written to the last of `total` read. */
export async function bulkDownload(port: number, bytes: Buffer, total: number): Promise<number> {
  const s = connect({ host: '127.0.0.1', port, noDelay: true });
  await once(s, 'connect');
  const t0 = performance.now();
  s.write(bytes);
  let got = 0;
  await new Promise<void>((resolve, reject) => {
    s.on('data', (d: Buffer) => {
      got += d.length;
      if (got >= total) resolve();
    });
    s.on('error', reject);
    s.on('close', () =>
      got >= total ? resolve() : reject(new Error(`closed after ${got} of ${total} bytes`)),
    );
  });
  const seconds = (performance.now() - t0) / 1000;
  s.destroy();
  return total / 2 ** 20 / seconds;
}

/** Opens `count` logins through the proxy, `inFlight` at a time, and leaves them open; resolves with the sockets. */
export async function openIdle(port: number, bytes: Buffer, count: number, inFlight = 64): Promise<Socket[]> {
  const sockets: Socket[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      const s = connect({ host: '127.0.0.1', port });
      s.on('error', () => undefined);
      await once(s, 'connect');
      s.write(bytes);
      sockets.push(s);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return sockets;
}

/** A check for one connection: done once the status response and the pong (two frames) came. */
export function twoFrames(): (got: number, chunk: Buffer) => boolean {
  const reader = new FrameReader(1 << 20);
  let frames = 0;
  return (_got, chunk) => {
    frames += reader.push(chunk).length;
    return frames >= 2;
  };
}
