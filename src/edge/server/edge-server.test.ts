import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameReader } from '../codec/frame-reader.ts';
import { parseHandshake } from '../codec/handshake.ts';
import { legacyPingResponse } from '../codec/legacy-ping.ts';
import { PacketReader } from '../codec/packet-reader.ts';
import { frame, handshakeFrame, statusResponse, stringField } from '../codec/packet-writer.ts';
import { parseProxyV2 } from '../codec/proxy-v2.ts';
import { RouteTable, type EdgeRoute } from '../routes/route-table.ts';
import { type EdgeServer } from './edge-server.ts';
import { edgeRoute, startLocalEdge } from '../../testing/edge-fixture.ts';

const route = (id: number, port: number, over: Partial<EdgeRoute> = {}): EdgeRoute =>
  edgeRoute(id, port, over);

/** An upstream made of the codec: answers status; for a login, records what came and echoes "hello". */
async function upstream(): Promise<{
  server: Server;
  port: number;
  received: Buffer[];
  statusCalls: number;
}> {
  const state = { received: [] as Buffer[], statusCalls: 0 };
  const server = createServer((s) => {
    const reader = new FrameReader(1 << 16);
    let all = Buffer.alloc(0);
    s.on('error', () => s.destroy());
    s.on('data', (chunk) => {
      all = Buffer.concat([all, chunk]);
      state.received.push(chunk);
      if (all.subarray(0, 12).equals(Buffer.from('0d0a0d0a000d0a515549540a', 'hex')))
        return void s.write('hello');
      const frames = reader.push(chunk);
      const h = frames[0] === undefined ? null : parseHandshake(frames[0]);
      if (h?.nextState === 'status') {
        state.statusCalls++;
        s.end(
          statusResponse(
            JSON.stringify({
              version: { name: 'Paper', protocol: h.protocol },
              players: { max: 20, online: 2 },
              description: { text: 'up' },
            }),
          ),
        );
      } else if (h !== null) s.write('hello');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return Object.assign(state, { server, port: (server.address() as { port: number }).port });
}

/** A client: sends `bytes`, collects everything until the edge closes. */
function exchange(port: number, bytes: Buffer | Buffer[]): Promise<Buffer> {
  return new Promise((resolve) => {
    const s: Socket = connect({ host: '127.0.0.1', port });
    const got: Buffer[] = [];
    s.on('data', (d) => got.push(d));
    s.on('error', () => undefined);
    s.on('close', () => resolve(Buffer.concat(got)));
    const parts = Array.isArray(bytes) ? bytes : [bytes];
    void (async () => {
      for (const p of parts) {
        s.write(p);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
  });
}

const statusPing = (host: string, protocol = 767) => [
  handshakeFrame({ protocol, host, port: 25565, nextState: 'status' }),
  frame(0x00, Buffer.alloc(0)),
  frame(0x01, Buffer.from('0000000000000007', 'hex')),
];

function readStatus(answer: Buffer): { status: Record<string, unknown>; pong: bigint } {
  const [s, p] = new FrameReader(1 << 20).push(answer);
  const sr = new PacketReader(s!);
  sr.varInt();
  const pr = new PacketReader(p!);
  pr.varInt();
  return { status: JSON.parse(sr.string(1 << 20)), pong: pr.long() };
}

describe('edge server over TCP', () => {
  let up: Awaited<ReturnType<typeof upstream>>;
  let edge: EdgeServer;
  let clock = Date.now();
  beforeAll(async () => {
    up = await upstream();
    edge = await startLocalEdge({
      now: () => clock,
      idleTimeoutMs: 5_000,
      limits: { rate: 1000, burst: 1000, maxPerAddress: 32 },
    });
    edge.setRoutes(
      new RouteTable([
        {
          route: route(1, up.port, { onlineMotd: 'Welcome', offlineMotd: 'Back soon' }),
          names: { exact: ['mc.example.net'], wildcard: [] },
        },
        {
          route: route(2, up.port, { proxyProtocol: true, realIp: true }),
          names: { exact: ['pp.example.net'], wildcard: [] },
        },
        { route: route(3, 1, { mode: 'status_only' }), names: { exact: [], wildcard: ['list.example.net'] } },
      ]),
    );
  });
  afterAll(async () => {
    await edge?.close();
    up?.server.close();
  });

  it('answers status from the upstream with the route’s overrides, cached, and completes the ping', async () => {
    const first = readStatus(await exchange(edge.port, statusPing('MC.example.net.')));
    expect(first.status).toMatchObject({ description: { text: 'Welcome' }, players: { online: 2 } });
    expect(first.pong).toBe(7n);
    readStatus(await exchange(edge.port, statusPing('mc.example.net\0FML3\0')));
    expect(up.statusCalls).toBe(1);
    expect(edge.counters.statusCache).toMatchObject({ miss: 1, hit: 1 });
  });

  it('names an unknown address in the status, and refuses a login to it with a disconnect', async () => {
    expect(readStatus(await exchange(edge.port, statusPing('nope.example.net'))).status).toMatchObject({
      description: { text: 'Unknown address' },
    });
    const login = await exchange(edge.port, [
      handshakeFrame({ protocol: 767, host: 'nope.example.net', port: 25565, nextState: 'login' }),
      frame(0x00, stringField('Steve')),
    ]);
    const [d] = new FrameReader(1 << 16).push(login);
    const r = new PacketReader(d!);
    expect(r.varInt()).toBe(0);
    expect(JSON.parse(r.string(1 << 16))).toEqual({ text: 'Unknown address' });
  });

  it('pipes a login upstream: handshake replayed as sent, PROXY v2 first and the player’s address when asked', async () => {
    up.received.length = 0;
    const echoed = await new Promise<string>((resolve) => {
      const s = connect({ host: '127.0.0.1', port: edge.port });
      s.on('data', (d) => {
        resolve(d.toString());
        s.destroy();
      });
      s.write(
        Buffer.concat([
          handshakeFrame({ protocol: 767, host: 'pp.example.net\0FML3\0', port: 25565, nextState: 'login' }),
          frame(0x00, stringField('Alex')),
        ]),
      );
    });
    expect(echoed).toBe('hello');
    const got = Buffer.concat(up.received);
    const proxy = parseProxyV2(got);
    expect(proxy).toMatchObject({ addresses: { sourceAddress: '127.0.0.1' } });
    const frames = new FrameReader(1 << 16).push(got.subarray((proxy as { length: number }).length));
    const h = parseHandshake(frames[0]!)!;
    expect(h.host).toMatch(/^pp\.example\.net\0FML3\0\/\/\/127\.0\.0\.1:\d+\/\/\/\d+$/);
    expect(new PacketReader(frames[1]!).varInt()).toBe(0);
  });

  it('serves the last real status with offline_motd while the upstream is down', async () => {
    const port = up.port;
    await new Promise<void>((r) => up.server.close(() => r()));
    const t0 = Date.now();
    const fresh = readStatus(await exchange(edge.port, statusPing('mc.example.net', 767)));
    expect(fresh.status).toMatchObject({ description: { text: 'Welcome' } });
    // Past the route's 10 s: the upstream is asked, cannot be reached, and its last real answer is served.
    clock += 11_000;
    const stale = readStatus(await exchange(edge.port, statusPing('mc.example.net', 767)));
    expect(stale.status).toMatchObject({
      description: { text: 'Back soon' },
      players: { max: 20, online: 2 },
      version: { name: 'Paper' },
    });
    expect(stale.pong).toBe(7n);
    expect(edge.counters.statusCache.stale).toBe(1);
    const never = readStatus(await exchange(edge.port, statusPing('mc.example.net', 760)));
    expect(never.status).toMatchObject({
      description: { text: 'Back soon' },
      version: { name: 'offline', protocol: 760 },
    });
    expect(never.pong).toBe(7n);
    expect(Date.now() - t0).toBeLessThan(3_000);
    up.server.listen(port, '127.0.0.1');
  });

  it('closes at once on a length that is no VarInt, an oversized handshake, a bad handshake', async () => {
    expect((await exchange(edge.port, Buffer.from('ffffffffff01', 'hex'))).length).toBe(0);
    expect((await exchange(edge.port, Buffer.from('ff7f', 'hex'))).length).toBe(0);
    expect((await exchange(edge.port, frame(0x05, Buffer.from('00', 'hex')))).length).toBe(0);
    expect(edge.counters.connections.get('malformed')).toBeGreaterThanOrEqual(3);
  });

  it('answers the 1.6 legacy ping for a route', async () => {
    const u16 = (s: string) => Buffer.from(s, 'utf16le').swap16();
    const host = u16('lobby.list.example.net');
    const data = Buffer.alloc(1 + 2 + host.length + 4);
    data[0] = 78;
    data.writeUInt16BE('lobby.list.example.net'.length, 1);
    host.copy(data, 3);
    data.writeInt32BE(25565, 3 + host.length);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(data.length);
    const channel = u16('MC|PingHost');
    const head = Buffer.from([0xfe, 0x01, 0xfa, 0x00, 11]);
    const answer = await exchange(edge.port, Buffer.concat([head, channel, len, data]));
    const expected = legacyPingResponse({ version: 'offline', motd: 'Server is offline', online: 0, max: 0 });
    expect(Buffer.from(answer.subarray(3)).swap16().toString('utf16le')).toBe(
      Buffer.from(expected.subarray(3)).swap16().toString('utf16le'),
    );
    expect(answer.equals(expected)).toBe(true);
  });
});

describe('edge server: connection limits', () => {
  it('refuses new connections of a network past its burst', async () => {
    const edge = await startLocalEdge({
      idleTimeoutMs: 5_000,
      upstreamTimeoutMs: 500,
      limits: { rate: 0.001, burst: 2, maxPerAddress: 32 },
    });
    try {
      const answers = [];
      for (let i = 0; i < 3; i++)
        answers.push((await exchange(edge.port, statusPing('x.example.net'))).length);
      expect(answers[0]).toBeGreaterThan(0);
      expect(answers[1]).toBeGreaterThan(0);
      expect(answers[2]).toBe(0);
      expect(edge.counters.connections.get('rate_limited')).toBe(1);
    } finally {
      await edge.close();
    }
  });
});
