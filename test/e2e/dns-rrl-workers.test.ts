/**
 * Response rate limiting per node, not per worker: `ROLE=dns` with two workers on the native UDP
 * path steers each datagram by its source network (SO_ATTACH_REUSEPORT_CBPF), so one client
 * network always reaches one worker and that worker's limiter sees the network's whole rate. A
 * flood from one address over many source ports gets RRL_RATE answers a second (± 10 %), where
 * per-worker counting with the kernel's port hash gave about twice that. Real processes, real
 * PostgreSQL and Redis; skipped without them.
 */
import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProcessStage, type ProcessStage } from '../../src/testing/process-stage.ts';
import { callApi, startProcess, type Proc } from '../../src/testing/product-process.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const DOMAIN = 'rrl-workers.example';
const RATE = 50;
const FLOOD_SECONDS = 4;
const QUERIES_PER_SECOND = 1_000;

/** The `dns_worker_queries_total` of each worker in a /metrics body. */
function perWorker(body: string): number[] {
  const out = [0, 0];
  for (const m of body.matchAll(/^dns_worker_queries_total\{[^}]*worker="(\d)"[^}]*\} (\d+)/gm))
    out[Number(m[1])]! += Number(m[2]);
  return out;
}

function query(id: number): Buffer {
  return dnsPacket.encode({ type: 'query', id, questions: [{ type: 'A', name: `www.${DOMAIN}` }] });
}

/** Sends one query from `source` (a fresh socket, so a fresh port) and waits for any answer. */
function askFrom(source: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    const done = (ok: boolean) => {
      clearTimeout(timer);
      s.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 1_000);
    s.on('message', () => done(true));
    s.bind(0, source, () => s.send(query(1), port, '127.0.0.1'));
  });
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('RRL across DNS workers (one rate per node)', () => {
  let stage: ProcessStage;
  let dns: Proc;
  let port: number;
  let opsUrl: string;

  beforeAll(async () => {
    stage = await openProcessStage('rrlw');
    const api = startProcess({ ...stage.env, ROLE: 'api', DATA_DIR: stage.dataDir() });
    const apiUrl = String((await api.waitFor((l) => l.msg === 'API listening', 60_000)).url);
    const token = await stage.signUp(apiUrl);
    const zone = await callApi<{ id: number }>(
      apiUrl,
      'POST',
      '/api/v1/dns/zones',
      { domain: DOMAIN },
      token,
    );
    await callApi(
      apiUrl,
      'POST',
      `/api/v1/dns/zones/${zone.id}/records`,
      { name: 'www', type: 'A', content: '192.0.2.1' },
      token,
    );
    dns = startProcess({
      ...stage.env,
      ROLE: 'dns',
      DNS_WORKERS: '2',
      RRL_RATE: String(RATE),
      // Loopback is exempt by default; the test's clients are on loopback.
      RRL_EXEMPT: '192.0.2.0/24',
      DATA_DIR: stage.dataDir(),
    });
    opsUrl = String((await dns.waitFor((l) => l.msg === 'ops endpoints listening', 60_000)).url);
    port = Number((await dns.waitFor((l) => l.msg === 'DNS listening', 90_000)).port);
  }, 120_000);

  afterAll(async () => stage?.close(), 30_000);

  const scrape = async (): Promise<number[]> => perWorker(await (await fetch(`${opsUrl}/metrics`)).text());

  it('sends every query of one client network to one worker, and spreads networks over both', async () => {
    const before = await scrape();
    // One network (127.0.0.0/24), a fresh source port each time: one worker only.
    for (let i = 0; i < 30; i++) expect(await askFrom('127.0.0.1', port)).toBe(true);
    const mid = await scrape();
    const oneNet = mid.map((n, w) => n - before[w]!);
    expect(oneNet.reduce((a, b) => a + b)).toBe(30);
    expect(oneNet.filter((n) => n > 0)).toHaveLength(1);
    // Thirty-two networks (127.0.X.1): both workers.
    for (let x = 1; x <= 32; x++) expect(await askFrom(`127.0.${x}.1`, port)).toBe(true);
    const spread = (await scrape()).map((n, w) => n - mid[w]!);
    expect(spread.reduce((a, b) => a + b)).toBe(32);
    expect(spread.every((n) => n > 0)).toBe(true);
  }, 60_000);

  it(`gives a flood from one address over many ports ${RATE} answers a second (± 10 %)`, async () => {
    const sockets = await Promise.all(
      Array.from(
        { length: 16 },
        () =>
          new Promise<dgram.Socket>((resolve) => {
            const s = dgram.createSocket('udp4');
            s.bind(0, '127.0.0.1', () => resolve(s));
          }),
      ),
    );
    const start = performance.now();
    const answeredAt: number[] = [];
    let slipped = 0;
    for (const s of sockets) {
      s.on('message', (msg: Buffer) => {
        // TC set: a slipped answer (retry over TCP), not an answer.
        if ((msg[2]! & 0x02) !== 0) slipped++;
        else answeredAt.push(performance.now() - start);
      });
    }
    let sent = 0;
    const total = FLOOD_SECONDS * QUERIES_PER_SECOND;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        // Catch up to the schedule: QUERIES_PER_SECOND spread evenly, whatever the timer's jitter.
        const due = Math.min(total, Math.floor(((performance.now() - start) * QUERIES_PER_SECOND) / 1000));
        for (; sent < due; sent++)
          sockets[sent % sockets.length]!.send(query((sent % 65535) + 1), port, '127.0.0.1');
        if (sent >= total) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    await new Promise((r) => setTimeout(r, 500));
    for (const s of sockets) s.close();
    // After the first second the bucket's burst is spent: what is left is the rate itself.
    const steady = answeredAt.filter((t) => t >= 1_000 && t < FLOOD_SECONDS * 1_000).length;
    const perSecond = steady / (FLOOD_SECONDS - 1);
    console.info(
      `dns-rrl-workers e2e: ${sent} queries in ${FLOOD_SECONDS} s from 16 ports → ${answeredAt.length} answered ` +
        `(${perSecond.toFixed(1)}/s after the first second, RRL_RATE ${RATE}), ${slipped} slipped`,
    );
    expect(sent).toBe(total);
    expect(perSecond).toBeGreaterThanOrEqual(RATE * 0.9);
    expect(perSecond).toBeLessThanOrEqual(RATE * 1.1);
    expect(slipped).toBeGreaterThan(0);
  }, 60_000);
});
