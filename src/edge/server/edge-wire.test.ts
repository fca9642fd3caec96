/**
 * The edge over real sockets, with the codec as client and upstream: every form of address a
 * client sends (Forge markers, the TCPShield form, a trailing dot, upper case) routed and replayed
 * as sent; frames written a byte at a time and all at once; malformed and oversized frames closing
 * the connection; the limits per address and per /24, with the player's address taken from a
 * trusted balancer's PROXY v2 header.
 */
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameReader } from '../codec/frame-reader.ts';
import { parseHandshake } from '../codec/handshake.ts';
import { PacketReader } from '../codec/packet-reader.ts';
import { frame, handshakeFrame, statusResponse, stringField } from '../codec/packet-writer.ts';
import { proxyV2Header } from '../codec/proxy-v2.ts';
import { writeVarInt } from '../codec/varint.ts';
import { RouteTable, type EdgeRoute } from '../routes/route-table.ts';
import { startEdgeServer, type EdgeServer, type EdgeServerOptions } from './edge-server.ts';
import { edgeRoute, localEdgeOptions } from '../../testing/edge-fixture.ts';

const route = (id: number, port: number): EdgeRoute =>
  edgeRoute(id, port, { onlineMotd: `route ${id}`, statusCacheTtlSeconds: 60 });

/** An upstream of the codec: answers status with its own MOTD; for a login, records the handshake and login start, answers "welcome". */
async function upstream(): Promise<{
  server: Server;
  port: number;
  logins: { host: string; name: string }[];
}> {
  const logins: { host: string; name: string }[] = [];
  const server = createServer((s) => {
    const reader = new FrameReader(1 << 16);
    const frames: Buffer[] = [];
    s.on('error', () => s.destroy());
    s.on('data', (chunk) => {
      frames.push(...reader.push(chunk));
      const h = frames[0] === undefined ? null : parseHandshake(frames[0]);
      if (h?.nextState === 'status' && frames.length === 2) {
        const body = { version: { name: 'Up', protocol: h.protocol }, players: { max: 5, online: 1 } };
        s.end(statusResponse(JSON.stringify({ ...body, description: { text: 'upstream' } })));
      } else if (h?.nextState === 'login' && frames.length === 2) {
        const r = new PacketReader(frames[1]!);
        r.varInt();
        logins.push({ host: h.host, name: r.string(64) });
        s.write('welcome');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as { port: number }).port, logins };
}

const OPTIONS: EdgeServerOptions = localEdgeOptions({ idleTimeoutMs: 5_000 });

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventuallyTrue(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await pause(20);
  expect(check()).toBe(true);
}

/** Sends `bytes` (a byte a write, each after a pause, when `bytewise`), answers what came back until `until` holds or the edge closed. */
async function exchange(
  port: number,
  bytes: Buffer,
  opts: { bytewise?: boolean; until?: (got: Buffer) => boolean } = {},
): Promise<{ got: Buffer; closed: boolean }> {
  const s: Socket = connect({ host: '127.0.0.1', port, noDelay: true });
  const chunks: Buffer[] = [];
  let closed = false;
  const done = new Promise<void>((resolve) => {
    s.on('data', (d: Buffer) => {
      chunks.push(d);
      if (opts.until?.(Buffer.concat(chunks)) === true) resolve();
    });
    s.on('close', () => {
      closed = true;
      resolve();
    });
  });
  s.on('error', () => undefined);
  await once(s, 'connect');
  if (opts.bytewise === true)
    for (const b of bytes) {
      if (s.destroyed) break;
      s.write(Buffer.from([b]));
      await pause(1);
    }
  else s.write(bytes);
  await done;
  s.destroy();
  return { got: Buffer.concat(chunks), closed };
}

const statusExchange = (host: string): Buffer =>
  Buffer.concat([
    handshakeFrame({ protocol: 769, host, port: 25565, nextState: 'status' }),
    frame(0x00, Buffer.alloc(0)),
    frame(0x01, Buffer.from('0102030405060708', 'hex')),
  ]);

const loginStart = (host: string, name: string): Buffer =>
  Buffer.concat([
    handshakeFrame({ protocol: 769, host, port: 25565, nextState: 'login' }),
    frame(0x00, Buffer.concat([stringField(name), Buffer.alloc(16)])),
  ]);

function motdOf(answer: Buffer): { motd: string; pong: string } {
  const [s, p] = new FrameReader(1 << 20).push(answer);
  const r = new PacketReader(s!);
  r.varInt();
  const json = JSON.parse(r.string(1 << 20)) as { description: { text: string } };
  return { motd: json.description.text, pong: p === undefined ? '' : p.subarray(1).toString('hex') };
}

describe('edge over sockets: addresses, framing, malformed input', () => {
  let up: Awaited<ReturnType<typeof upstream>>;
  let edge: EdgeServer;
  beforeAll(async () => {
    up = await upstream();
    edge = await startEdgeServer(OPTIONS);
    edge.setRoutes(
      new RouteTable([{ route: route(1, up.port), names: { exact: ['play.example.test'], wildcard: [] } }]),
    );
  });
  afterAll(async () => {
    await edge?.close();
    up?.server.close();
  });

  const routed: string[] = [
    'play.example.test',
    'Play.Example.TEST',
    'play.example.test.',
    'play.example.test\0FML\0',
    'play.example.test\0FML2\0',
    'play.example.test\0FML3\0',
    'play.example.test\0FORGE',
    'play.example.test///198.51.100.7:53211///1732870000',
    'PLAY.example.test.\0FML3\0',
  ];
  it.each(routed)('routes %j: status of the route, login replayed upstream as sent', async (host) => {
    expect(motdOf((await exchange(edge.port, statusExchange(host))).got)).toEqual({
      motd: 'route 1',
      pong: '0102030405060708',
    });
    const name = `p${routed.indexOf(host)}`;
    const login = await exchange(edge.port, loginStart(host, name), {
      until: (g) => g.toString() === 'welcome',
    });
    expect(login.got.toString()).toBe('welcome');
    expect(up.logins).toContainEqual({ host, name });
  });

  it.each(['play.example.test.evil', 'xplay.example.test', 'play.example', 'play.example.test..'])(
    'does not route %j',
    async (host) => {
      expect(motdOf((await exchange(edge.port, statusExchange(host))).got).motd).toBe('Unknown address');
    },
  );

  it('reads a status exchange and a login written a byte at a time, and both written at once', async () => {
    const bytewise = await exchange(edge.port, statusExchange('play.example.test'), { bytewise: true });
    expect(motdOf(bytewise.got)).toEqual({ motd: 'route 1', pong: '0102030405060708' });
    const login = await exchange(edge.port, loginStart('play.example.test', 'Bytewise'), {
      bytewise: true,
      until: (g) => g.toString() === 'welcome',
    });
    expect(login.got.toString()).toBe('welcome');
    expect(up.logins).toContainEqual({ host: 'play.example.test', name: 'Bytewise' });
    const coalesced = await exchange(edge.port, statusExchange('play.example.test'));
    expect(motdOf(coalesced.got).pong).toBe('0102030405060708');
  });

  it('closes without a byte on a length over 5 bytes, a handshake over 4 KiB, a host over 255 bytes', async () => {
    const before = edge.counters.connections.get('malformed') ?? 0;
    const sixByteLength = Buffer.from('ffffffffff0100', 'hex');
    const long = Buffer.alloc(4097 + 2);
    const at = writeVarInt(long, 0, 4097);
    long.fill(0x61, at);
    const bigHost = handshakeFrame({
      protocol: 769,
      host: 'a'.repeat(256),
      port: 25565,
      nextState: 'status',
    });
    for (const bytes of [sixByteLength, long, bigHost]) {
      const r = await exchange(edge.port, bytes);
      expect(r).toEqual({ got: Buffer.alloc(0), closed: true });
    }
    expect(edge.counters.connections.get('malformed')).toBe(before + 3);
    // 255 bytes is still an address (unknown here): answered.
    const longest = await exchange(edge.port, statusExchange(`${'a'.repeat(251)}.net`));
    expect(motdOf(longest.got).motd).toBe('Unknown address');
  });

  it('does not believe a PROXY v2 header from a peer it does not trust', async () => {
    const header = proxyV2Header({
      sourceAddress: '203.0.113.9',
      sourcePort: 1,
      destinationAddress: '127.0.0.1',
      destinationPort: 2,
    });
    const r = await exchange(edge.port, Buffer.concat([header, statusExchange('play.example.test')]));
    expect(r).toEqual({ got: Buffer.alloc(0), closed: true });
  });
});

describe('edge over sockets: connection limits', () => {
  /** An idle connection the edge admitted (its first byte sent), kept open. */
  async function held(port: number, first: Buffer): Promise<Socket> {
    const s = connect({ host: '127.0.0.1', port });
    s.on('error', () => undefined);
    await once(s, 'connect');
    s.write(first);
    await pause(30);
    return s;
  }

  it('holds at most max_per_address open connections of one address, and admits again when one closes', async () => {
    const edge = await startEdgeServer({ ...OPTIONS, limits: { rate: 1000, burst: 1000, maxPerAddress: 2 } });
    try {
      const partial = Buffer.from([0x10]);
      const open = [await held(edge.port, partial), await held(edge.port, partial)];
      await eventuallyTrue(() => edge.counters.active === 2);
      expect(await exchange(edge.port, statusExchange('x.example.test'))).toEqual({
        got: Buffer.alloc(0),
        closed: true,
      });
      expect(edge.counters.connections.get('too_many')).toBe(1);
      open[0]!.destroy();
      await eventuallyTrue(() => edge.counters.active === 1);
      expect(motdOf((await exchange(edge.port, statusExchange('x.example.test'))).got).motd).toBe(
        'Unknown address',
      );
      open[1]!.destroy();
    } finally {
      await edge.close();
    }
  });

  it('counts new connections per /24 of the player’s address a trusted balancer names in PROXY v2', async () => {
    const edge = await startEdgeServer({
      ...OPTIONS,
      trustedProxy: (a) => a === '127.0.0.1',
      limits: { rate: 0.001, burst: 2, maxPerAddress: 64 },
    });
    const from = (sourceAddress: string): Buffer =>
      Buffer.concat([
        proxyV2Header({
          sourceAddress,
          sourcePort: 40000,
          destinationAddress: '127.0.0.1',
          destinationPort: edge.port,
        }),
        statusExchange('x.example.test'),
      ]);
    try {
      const answered = async (a: string) => (await exchange(edge.port, from(a))).got.length > 0;
      expect(await answered('203.0.113.1')).toBe(true);
      expect(await answered('203.0.113.2')).toBe(true);
      expect(await answered('203.0.113.3')).toBe(false);
      expect(await answered('198.51.100.9')).toBe(true);
      expect(await answered('2001:db8:1:2::1')).toBe(true);
      expect(await answered('2001:db8:1:2::2')).toBe(true);
      expect(await answered('2001:db8:1:2:ffff::3')).toBe(false);
      expect(edge.counters.connections.get('rate_limited')).toBe(2);
    } finally {
      await edge.close();
    }
  });
});

describe('edge over sockets: a piped login under back-pressure', () => {
  const SIZE = 8 * 2 ** 20;
  const pattern = (n: number, step: number): Buffer => {
    const b = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) b[i] = (i * step + 3) & 0xff;
    return b;
  };

  it('carries megabytes both ways in order to a player who reads late, and passes the end on', async () => {
    const down = pattern(SIZE, 7);
    const up = pattern(SIZE, 13);
    const login = loginStart('bulk.example.test', 'Bulk');
    const received: Buffer[] = [];
    let upstreamSawEnd = false;
    const server = createServer((s) => {
      s.once('data', () => s.end(down));
      s.on('data', (d: Buffer) => received.push(d));
      s.on('end', () => (upstreamSawEnd = true));
      s.on('error', () => undefined);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const edge = await startEdgeServer(OPTIONS);
    edge.setRoutes(
      new RouteTable([
        {
          route: route(1, (server.address() as { port: number }).port),
          names: { exact: ['bulk.example.test'], wildcard: [] },
        },
      ]),
    );
    try {
      const player = connect({ host: '127.0.0.1', port: edge.port });
      await once(player, 'connect');
      player.on('error', () => undefined);
      player.pause();
      player.write(Buffer.concat([login, up]));
      await pause(300); // the edge's buffers toward the player fill meanwhile
      const got: Buffer[] = [];
      player.on('data', (d: Buffer) => got.push(d));
      player.resume();
      await Promise.race([once(player, 'end'), once(player, 'close')]);
      expect(Buffer.concat(got).equals(down)).toBe(true);
      // The player's end (sent once it read the upstream's) reaches the upstream after its bytes.
      await eventuallyTrue(() => upstreamSawEnd);
      expect(Buffer.concat(received).equals(Buffer.concat([login, up]))).toBe(true);
      player.destroy();
    } finally {
      await edge.close();
      server.close();
    }
  });
});
