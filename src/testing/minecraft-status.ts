/**
 * Test helper: the Minecraft Java server list exchange, both ends made of the edge's own codec —
 * a client asking a server's status through an edge, and a tiny game server that answers it.
 */
import { connect, createServer, type Server } from 'node:net';
import {
  FrameReader,
  frame,
  handshakeFrame,
  PacketReader,
  parseHandshake,
  statusResponse,
} from '../edge/index.ts';

/**
 * The status JSON an edge at `port` answers for `host` (the name a player typed), asked as a
 * client does: handshake, status request, then the ping; resolves once the edge has closed.
 * `before`: bytes sent ahead of the handshake (a load balancer's PROXY v2 header).
 */
export function askStatus(
  port: number,
  host: string,
  options: { readonly timeoutMs?: number; readonly before?: Buffer } = {},
): Promise<Record<string, unknown>> {
  return exchange(
    port,
    [
      ...(options.before !== undefined ? [options.before] : []),
      handshakeFrame({ protocol: 767, host, port: 25565, nextState: 'status' }),
      frame(0x00, Buffer.alloc(0)),
      frame(0x01, Buffer.alloc(8)),
    ],
    options.timeoutMs ?? 2_000,
  ).then((frames) => {
    const first = frames[0];
    if (first === undefined) throw new Error(`:${port} closed without a status`);
    const packet = new PacketReader(first);
    packet.varInt(); // packet id 0x00: the status response
    return JSON.parse(packet.string(1 << 20)) as Record<string, unknown>;
  });
}

/** A login attempt for `host` as `name`; resolves with the frames the edge sent until it closed. */
export function tryLogin(port: number, host: string, name = 'Steve', timeoutMs = 2_000): Promise<Buffer[]> {
  const nameBytes = Buffer.from(name);
  const loginStart = frame(
    0x00,
    Buffer.concat([Buffer.from([nameBytes.length]), nameBytes, Buffer.alloc(16)]),
  );
  return exchange(
    port,
    [handshakeFrame({ protocol: 767, host, port: 25565, nextState: 'login' }), loginStart],
    timeoutMs,
  );
}

/** Sends `frames` to the edge at `port`; resolves with the frames it answered once it closed. */
function exchange(port: number, frames: readonly Buffer[], timeoutMs: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const reader = new FrameReader(1 << 20);
    const got: Buffer[] = [];
    const timer = setTimeout(
      () => socket.destroy(new Error(`:${port} still open after ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('data', (chunk) => got.push(...reader.push(chunk)));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
    for (const f of frames) socket.write(f);
  });
}

/** The server list text of a status answer (`description.text`), or null. */
export function statusText(status: Record<string, unknown>): string | null {
  const d = status.description as { text?: unknown } | string | undefined;
  if (typeof d === 'string') return d;
  return typeof d?.text === 'string' ? d.text : null;
}

export interface GameUpstream {
  readonly port: number;
  /** Status requests answered so far. */
  statusCalls(): number;
  close(): Promise<void>;
}

/** A game server on a free port of 127.0.0.1 that answers every status request with `motd`. */
export async function startGameUpstream(motd: string): Promise<GameUpstream> {
  let calls = 0;
  const server: Server = createServer((socket) => {
    const reader = new FrameReader(1 << 16);
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      const first = reader.push(chunk)[0];
      const handshake = first === undefined ? null : parseHandshake(first);
      if (handshake?.nextState !== 'status') return;
      calls++;
      const status = {
        version: { name: 'Test', protocol: handshake.protocol },
        players: { max: 20, online: 1 },
        description: { text: motd },
      };
      socket.end(statusResponse(JSON.stringify(status)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    statusCalls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
