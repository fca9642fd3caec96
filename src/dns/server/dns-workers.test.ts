import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dnsPacket from 'dns-packet';
import { queryTcp, queryUdp } from '../../testing/dns-client.ts';
import { startDnsWorkers } from './dns-workers.ts';
import type { DnsWorkers } from './dns-workers.ts';

const HOST = '127.0.0.1';
/** The test's worker entry script: its loadZones, run by runDnsWorker. */
const FIXTURE = fileURLToPath(new URL('./dns-workers-fixture.ts', import.meta.url));
const EXEC_ARGV = ['--import', 'tsx'];

function query(id: number): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    questions: [{ name: 'www.example.test', type: 'A', class: 'IN' }],
  });
}

async function answerA(port: number, tcp = false): Promise<string | undefined> {
  const ex = tcp
    ? await queryTcp(query(7), { host: HOST, port })
    : await queryUdp(query(7), { host: HOST, port });
  const a = ex.decoded?.answers?.find((r) => r.type === 'A');
  return a === undefined ? undefined : String((a as { data: unknown }).data);
}

async function until(cond: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('startDnsWorkers', () => {
  let dns: DnsWorkers;

  beforeAll(async () => {
    dns = await startDnsWorkers({
      host: HOST,
      port: 0,
      workers: 2,
      workerEntry: FIXTURE,
      zoneOptions: { n: 1 },
      rrl: null,
      execArgv: EXEC_ARGV,
    });
  }, 60_000);
  afterAll(async () => {
    await dns?.close();
  });

  it('serves UDP and TCP on one shared port from every worker', async () => {
    expect(dns.port).toBeGreaterThan(0);
    expect(dns.workerCount()).toBe(2);
    expect(await answerA(dns.port)).toBe('192.0.2.1');
    expect(await answerA(dns.port, true)).toBe('192.0.2.1');
  });

  it('delivers broadcasts to the zone module of each worker', async () => {
    dns.broadcast({ n: 2 });
    // Each worker applies it in its own time: wait until both say so (one answering is not enough).
    await until(async () =>
      (await dns.request({}, 1_000)).every((r) => (r.reply as { n?: number } | undefined)?.n === 2),
    );
    // Several queries: whichever worker reads them, each has the new data.
    for (let i = 0; i < 6; i++) expect(await answerA(dns.port)).toBe('192.0.2.2');
  });

  it('gathers one reply per worker to a request, each naming its index', async () => {
    const replies = await dns.request({ ping: 1 }, 5_000);
    expect(replies.map((r) => r.index).sort()).toEqual([0, 1]);
    for (const r of replies) expect(r.reply).toEqual({ index: r.index, n: 2, asked: { ping: 1 } });
    expect(
      dns
        .workers()
        .map((w) => w.index)
        .sort(),
    ).toEqual([0, 1]);
  });

  it('replaces a worker that dies and keeps serving; the replacement keeps its index', async () => {
    const victim = dns.workers().find((w) => w.index === 1)!;
    process.kill(victim.pid!, 'SIGKILL');
    await until(() => dns.restartCount() === 1 && dns.workerCount() === 2);
    // The replacement loaded zones from the options again (n: 1); the survivor has n: 2.
    expect(['192.0.2.1', '192.0.2.2']).toContain(await answerA(dns.port));
    const replacement = dns.workers().find((w) => w.index === 1)!;
    expect(replacement.pid).not.toBe(victim.pid);
    // Forked is not yet listening: a worker still starting is listed without a reply.
    await until(async () => (await dns.request({}, 1_000)).every((r) => r.reply !== undefined));
    const replies = await dns.request({}, 5_000);
    expect(replies.map((r) => [r.index, (r.reply as { n: number }).n]).sort()).toEqual([
      [0, 2],
      [1, 1],
    ]);
  }, 30_000);

  it('close stops every worker without restarting them', async () => {
    await dns.close();
    expect(dns.workerCount()).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(dns.workerCount()).toBe(0);
    expect(
      await queryUdp(query(9), { host: HOST, port: dns.port, timeoutMs: 200, retries: 0 }),
    ).toMatchObject({
      response: null,
    });
  });
});

describe('startDnsWorkers start failure', () => {
  it('rejects when a worker cannot load its zones', async () => {
    await expect(
      startDnsWorkers({
        host: HOST,
        port: 0,
        workers: 2,
        workerEntry: FIXTURE,
        zoneOptions: { n: 1, fail: true },
        execArgv: EXEC_ARGV,
      }),
    ).rejects.toThrow(/fixture asked to fail/);
    expect(Object.keys(cluster.workers ?? {})).toHaveLength(0);
  }, 60_000);
});
