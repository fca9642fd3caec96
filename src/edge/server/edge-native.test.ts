import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FrameReader } from '../codec/frame-reader.ts';
import { parseHandshake } from '../codec/handshake.ts';
import { PacketReader } from '../codec/packet-reader.ts';
import { frame, handshakeFrame, statusResponse, stringField } from '../codec/packet-writer.ts';
import { writeVarInt } from '../codec/varint.ts';
import { RouteTable } from '../routes/route-table.ts';
import { loadEdgeAcceptAddon } from './edge-accept-native.ts';
import type { EdgeServer } from './edge-server.ts';
import { edgeRoute, startLocalEdge } from '../../testing/edge-fixture.ts';

const built = loadEdgeAcceptAddon() !== null;

/** A game server: answers status (counting the asks); records a login's bytes and answers "hello". */
async function upstream(): Promise<{
  server: Server;
  port: number;
  received: Buffer[];
  statusCalls: number;
}> {
  const state = { received: [] as Buffer[], statusCalls: 0 };
  const server = createServer((s) => {
    const reader = new FrameReader(1 << 16);
    s.on('error', () => s.destroy());
    s.on('data', (chunk) => {
      state.received.push(chunk);
      const frames = reader.push(chunk, 1);
      const h = frames[0] === undefined ? null : parseHandshake(frames[0]);
      if (h?.nextState === 'status') {
        state.statusCalls++;
        s.end(
          statusResponse(
            JSON.stringify({ version: { name: 'Paper', protocol: h.protocol }, description: { text: 'up' } }),
          ),
        );
      } else if (h !== null) s.write('hello');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return Object.assign(state, { server, port: (server.address() as { port: number }).port });
}

/** Sends the parts 10 ms apart; resolves with everything received once the edge closes. */
function exchange(port: number, parts: Buffer[]): Promise<Buffer> {
  return new Promise((resolve) => {
    const s: Socket = connect({ host: '127.0.0.1', port });
    const got: Buffer[] = [];
    s.on('data', (d) => got.push(d));
    s.on('error', () => undefined);
    s.on('close', () => resolve(Buffer.concat(got)));
    void (async () => {
      for (const p of parts) {
        if (s.destroyed) return;
        s.write(p);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
  });
}

const PING = frame(0x01, Buffer.from('0000000000000007', 'hex'));
const statusParts = (host: string, protocol = 767): Buffer[] => [
  handshakeFrame({ protocol, host, port: 25565, nextState: 'status' }),
  frame(0x00, Buffer.alloc(0)),
  PING,
];

function readStatus(answer: Buffer): { text: unknown; pong: bigint } {
  const [s, p] = new FrameReader(1 << 20).push(answer);
  const sr = new PacketReader(s!);
  sr.varInt();
  const pr = new PacketReader(p!);
  pr.varInt();
  return {
    text: (JSON.parse(sr.string(1 << 20)) as { description: { text: unknown } }).description.text,
    pong: pr.long(),
  };
}

describe.skipIf(!built)('edge server: native listener', () => {
  let up: Awaited<ReturnType<typeof upstream>>;
  let edge: EdgeServer;
  let clock = Date.now();
  beforeAll(async () => {
    up = await upstream();
    edge = await startLocalEdge({ now: () => clock, limits: { rate: 1000, burst: 1000, maxPerAddress: 32 } });
    edge.setRoutes(
      new RouteTable([
        {
          route: edgeRoute(1, up.port, { onlineMotd: 'Native' }),
          names: { exact: ['mc.example.net'], wildcard: ['games.example.net'] },
        },
      ]),
    );
  });
  afterAll(async () => {
    await edge?.close();
    up?.server.close();
  });

  it('listens natively, and answers a status in C once JS answered it from the cache', async () => {
    expect(edge.native).toBe(true);
    const first = readStatus(await exchange(edge.port, statusParts('mc.example.net')));
    expect(first).toEqual({ text: 'Native', pong: 7n });
    // The first asked the upstream, the second came from the cache (in JS, which publishes it).
    expect(readStatus(await exchange(edge.port, statusParts('mc.example.net')))).toEqual(first);
    expect(edge.counters.nativeAnswers).toBe(0);
    // Other spellings of the same name (case, trailing dot, Forge and TCPShield markers) clean to it.
    for (const host of [
      'mc.example.net',
      'MC.Example.NET.',
      'mc.example.net\0FML3\0',
      'mc.example.net///1.2.3.4:5///6',
    ]) {
      expect(readStatus(await exchange(edge.port, statusParts(host)))).toEqual({ text: 'Native', pong: 7n });
    }
    expect(edge.counters.nativeAnswers).toBe(4);
    expect(up.statusCalls).toBe(1);
    expect(edge.counters.statusCache.hit).toBe(5);
    expect(edge.counters.connections.get('status')).toBe(6);
  });

  it('answers handshake, request and ping sent in one write, and a handshake split over reads', async () => {
    const before = edge.counters.nativeAnswers;
    const one = Buffer.concat(statusParts('mc.example.net'));
    expect(readStatus(await exchange(edge.port, [one])).pong).toBe(7n);
    const split = [
      one.subarray(0, 3),
      one.subarray(3, 9),
      one.subarray(9, one.length - 4),
      one.subarray(one.length - 4),
    ];
    expect(readStatus(await exchange(edge.port, split))).toEqual({ text: 'Native', pong: 7n });
    expect(edge.counters.nativeAnswers).toBe(before + 2);
  });

  it('answers a wildcard name in C once JS answered that name from the cache, per protocol', async () => {
    const before = edge.counters.nativeAnswers;
    const calls = up.statusCalls;
    for (let i = 0; i < 2; i++)
      expect(readStatus(await exchange(edge.port, statusParts('a.games.example.net', 760))).text).toBe(
        'Native',
      );
    expect(edge.counters.nativeAnswers).toBe(before);
    expect(up.statusCalls).toBe(calls + 1);
    expect(readStatus(await exchange(edge.port, statusParts('a.games.example.net', 760))).text).toBe(
      'Native',
    );
    expect(edge.counters.nativeAnswers).toBe(before + 1);
    // Another name under the same wildcard is its own entry: JS answers it first.
    expect(readStatus(await exchange(edge.port, statusParts('b.games.example.net', 760))).text).toBe(
      'Native',
    );
    expect(edge.counters.nativeAnswers).toBe(before + 1);
  });

  it('hands a login over with its bytes intact, and the game bytes after it', async () => {
    up.received.length = 0;
    const sent = Buffer.concat([
      handshakeFrame({ protocol: 767, host: 'mc.example.net\0FML3\0', port: 25565, nextState: 'login' }),
      frame(0x00, Buffer.concat([stringField('Alex'), Buffer.alloc(16, 1)])),
      Buffer.from('after the login start'),
    ]);
    const echoed = await new Promise<string>((resolve) => {
      const s = connect({ host: '127.0.0.1', port: edge.port });
      s.on('data', (d) => {
        resolve(d.toString());
        s.destroy();
      });
      s.write(sent);
    });
    expect(echoed).toBe('hello');
    await new Promise((r) => setTimeout(r, 50));
    expect(Buffer.concat(up.received).equals(sent)).toBe(true);
  });

  it('closes an oversized handshake, a six-byte VarInt and a 256-byte host, counted malformed', async () => {
    const before = edge.counters.connections.get('malformed') ?? 0;
    const big = Buffer.alloc(5 + 4097);
    const at = writeVarInt(big, 0, 4097);
    expect((await exchange(edge.port, [big.subarray(0, at + 4097)])).length).toBe(0);
    expect((await exchange(edge.port, [Buffer.from('ffffffffff01', 'hex')])).length).toBe(0);
    const host = 'a'.repeat(256);
    expect((await exchange(edge.port, statusParts(host))).length).toBe(0);
    expect(edge.counters.connections.get('malformed')).toBe(before + 3);
  });

  it('closes a natively answered connection that sends something other than the ping', async () => {
    const before = edge.counters.connections.get('malformed') ?? 0;
    const [h, req] = statusParts('mc.example.net');
    const got = await exchange(edge.port, [h!, req!, frame(0x05, Buffer.alloc(2))]);
    expect(new FrameReader(1 << 20).push(got)).toHaveLength(1);
    expect(edge.counters.connections.get('malformed')).toBe(before + 1);
  });

  it('asks the upstream again once the cached answer is stale (JS decides freshness)', async () => {
    const calls = up.statusCalls;
    clock += 11_000;
    expect(readStatus(await exchange(edge.port, statusParts('mc.example.net'))).pong).toBe(7n);
    expect(up.statusCalls).toBe(calls + 1);
  });
});

describe.skipIf(!built)('edge server: native listener limits', () => {
  it('refuses past the burst of a network, answers natively within it', async () => {
    const up = await upstream();
    const edge = await startLocalEdge({ limits: { rate: 0.001, burst: 3, maxPerAddress: 32 } });
    try {
      edge.setRoutes(
        new RouteTable([
          { route: edgeRoute(1, up.port), names: { exact: ['mc.example.net'], wildcard: [] } },
        ]),
      );
      const lengths = [];
      for (let i = 0; i < 4; i++)
        lengths.push((await exchange(edge.port, statusParts('mc.example.net'))).length);
      // An upstream's answer, the cache's in JS, the cache's in C, then no token left.
      expect(lengths.slice(0, 3).every((n) => n > 0)).toBe(true);
      expect(lengths[3]).toBe(0);
      expect(edge.counters.nativeAnswers).toBe(1);
      expect(edge.counters.connections.get('rate_limited')).toBe(1);
    } finally {
      await edge.close();
      up.server.close();
    }
  });
});

describe('edge server: the native listener turned off', () => {
  it('listens with node:net when the options say native: false', async () => {
    const edge = await startLocalEdge({ native: false });
    try {
      expect(edge.native).toBe(false);
    } finally {
      await edge.close();
    }
  });
});

describe('edge server: EDGE_NATIVE=0', () => {
  const saved = process.env.EDGE_NATIVE;
  afterEach(() => {
    if (saved === undefined) delete process.env.EDGE_NATIVE;
    else process.env.EDGE_NATIVE = saved;
  });

  it('listens with node:net and answers the same', async () => {
    process.env.EDGE_NATIVE = '0';
    const up = await upstream();
    const edge = await startLocalEdge();
    try {
      expect(edge.native).toBe(false);
      edge.setRoutes(
        new RouteTable([
          { route: edgeRoute(1, up.port), names: { exact: ['mc.example.net'], wildcard: [] } },
        ]),
      );
      for (let i = 0; i < 2; i++)
        expect(readStatus(await exchange(edge.port, statusParts('mc.example.net')))).toEqual({
          text: 'up',
          pong: 7n,
        });
      expect(edge.counters.nativeAnswers).toBe(0);
      expect(edge.counters.statusCache.hit).toBe(1);
    } finally {
      await edge.close();
      up.server.close();
    }
  });
});
