/**
 * Robustness: 100,000 seeded random and mutated packets straight through the message handler,
 * and a few thousand over real UDP and TCP to a running server. The handler must never throw,
 * every response must echo the ID with QR set and fit the transport (UDP: 512 or the query's
 * EDNS payload, RFC 6891 §6.2.5; TCP: 65535), and afterwards the server still answers correctly.
 * Replay a failure with FUZZ_SEED=<seed>.
 */
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutcome } from '../../src/dns/index.ts';
import type { ClientInfo } from '../../src/dns/index.ts';
import { queryTcpMany, queryUdp } from '../../src/testing/dns-client.ts';
import { createSeededRandom } from '../../src/testing/seeded-random.ts';
import { CONFORMANCE_ZONES } from './conformance-zones.ts';
import { startEngine } from './engine-server.ts';
import type { EngineServer } from './engine-server.ts';
import { buildMalformedCorpus } from './malformed-corpus.ts';
import { mutatePacket, udpLimitFor } from './packet-mutator.ts';
import { buildQueryCorpus } from './query-corpus.ts';
import { buildQuery } from './query-wire-builder.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed);
const DIRECT_PACKETS = 100_000;
const UDP_PACKETS = 3_000;
const TCP_PACKETS = 1_500;
const TCP_BATCH = 100;
const MAX_TCP = 0xffff;
const HOST = '127.0.0.1';

const SEEDS: Buffer[] = [
  ...buildQueryCorpus().map((c) => c.wire),
  ...buildMalformedCorpus().map((c) => c.wire),
];
const probe = buildQuery({ id: 0xbeef, name: 'www.example.com', qtype: 1, edns: { payload: 1232 } });

function packets(n: number, seed: number): Buffer[] {
  const rnd = createSeededRandom(seed);
  return Array.from({ length: n }, () => mutatePacket(rnd.pick(SEEDS), rnd));
}

function checkResponse(q: Uint8Array, res: Buffer, limit: number): string | null {
  if (res.length < 12) return `response shorter than a header (${res.length})`;
  if (res.length > limit) return `response ${res.length} bytes > limit ${limit}`;
  if (q.length >= 2 && (res[0] !== q[0] || res[1] !== q[1])) return 'ID not echoed';
  if ((res[2]! & 0x80) === 0) return 'QR not set';
  return null;
}

async function assertHealthy(engine: EngineServer): Promise<void> {
  const u = await queryUdp(probe, { host: HOST, port: engine.server.udpPort });
  const [t] = await queryTcpMany([probe], { host: HOST, port: engine.server.tcpPort });
  for (const res of [u.response, t ?? null]) {
    expect(res).not.toBeNull();
    expect(res![3]! & 0x0f).toBe(0); // NOERROR
    expect(res!.readUInt16BE(6)).toBeGreaterThan(0); // an answer
  }
}

describe(`fuzz (seed ${SEED})`, () => {
  let engine: EngineServer;
  beforeAll(async () => {
    engine = await startEngine(CONFORMANCE_ZONES, { host: HOST });
  });
  afterAll(() => engine?.server.close());

  it(`${DIRECT_PACKETS} packets through the handler never throw and respect size limits`, () => {
    const out = createOutcome();
    const rnd = createSeededRandom(SEED);
    const udp: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };
    const tcp: ClientInfo = { transport: 'tcp', address: '2001:db8::1', port: 5353, family: 6 };
    const failures: string[] = [];
    for (let i = 0; i < DIRECT_PACKETS && failures.length < 20; i++) {
      const q = mutatePacket(rnd.pick(SEEDS), rnd);
      const client = i % 4 === 0 ? tcp : udp;
      let res: Buffer | null;
      try {
        res = engine.handler(q, client, out);
      } catch (e) {
        failures.push(`#${i} threw ${String(e)} for ${q.toString('hex')}`);
        continue;
      }
      if (res === null) continue;
      const why = checkResponse(q, res, client.transport === 'udp' ? udpLimitFor(q) : MAX_TCP);
      if (why) failures.push(`#${i} ${client.transport}: ${why} for ${q.toString('hex')}`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it(`${UDP_PACKETS} packets over UDP, then the server still answers`, async () => {
    const sent = packets(UDP_PACKETS, SEED + 1);
    // Unique IDs let us pair responses with queries; byte mutations elsewhere are kept.
    sent.forEach((p, i) => p.length >= 2 && p.writeUInt16BE(i, 0));
    const sock = dgram.createSocket('udp4');
    const failures: string[] = [];
    const done = new Promise<void>((resolve) => {
      sock.on('message', (msg) => {
        if (msg.length >= 2 && msg.readUInt16BE(0) === 0xbeef) return resolve();
        const id = msg.length >= 2 ? msg.readUInt16BE(0) : -1;
        const q = sent[id];
        if (q === undefined) failures.push(`unexpected response ${msg.toString('hex')}`);
        else {
          const why = checkResponse(q, msg, udpLimitFor(q));
          if (why) failures.push(`${why} for ${q.toString('hex')}`);
        }
      });
    });
    await new Promise<void>((r) => sock.bind(0, HOST, () => r()));
    for (let i = 0; i < sent.length; i += 100) {
      // Await each batch's send so the socket buffer never overflows locally.
      await Promise.all(
        sent
          .slice(i, i + 100)
          .map((p) => new Promise<void>((r) => sock.send(p, engine.server.udpPort, HOST, () => r()))),
      );
    }
    // The probe is answered after everything sent before it (one socket, in order).
    sock.send(probe, engine.server.udpPort, HOST);
    await done;
    sock.close();
    expect(failures.slice(0, 20)).toEqual([]);
    await assertHealthy(engine);
  }, 60_000);

  it(`${TCP_PACKETS} packets over TCP (pipelined batches), then the server still answers`, async () => {
    const all = packets(TCP_PACKETS, SEED + 2).filter((p) => p.length >= 12 && p.length <= MAX_TCP);
    all.forEach((p, i) => p.writeUInt16BE(i, 0));
    let answered = 0;
    for (let i = 0; i < all.length; i += TCP_BATCH) {
      const batch = [...all.slice(i, i + TCP_BATCH), probe];
      const res = await queryTcpMany(batch, {
        host: HOST,
        port: engine.server.tcpPort,
        timeoutMs: 5000,
        stopOnId: 0xbeef,
      });
      for (const r of res) expect(r.length).toBeGreaterThanOrEqual(12);
      // The probe comes last and must be answered: the connection survived the batch.
      expect(res.at(-1)?.readUInt16BE(0)).toBe(0xbeef);
      answered += res.length;
    }
    expect(answered).toBeGreaterThan(0);
    await assertHealthy(engine);
  }, 120_000);
});
