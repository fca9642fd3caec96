/**
 * The DNS role on several cores (DNS_WORKERS): `npm start`'s entry point with ROLE=dns and two
 * cluster workers, beside a ROLE=api process, both on real PostgreSQL (a fresh schema) and Redis.
 * Every worker answers over UDP and TCP, /metrics sums their counters, an API change reaches every
 * worker, a worker killed with SIGKILL is replaced while the port keeps answering, and SIGTERM
 * stops everything with exit code 0. Needs DATABASE_URL and REDIS_URL (workers need a shared
 * database and bus); skipped without them.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_FILE_NAME } from '../../src/nodes/dns/snapshot-file.ts';
import { openProcessStage, type ProcessStage } from '../../src/testing/process-stage.ts';
import { ask, callApi, startProcess, type Proc } from '../../src/testing/product-process.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const ZONES = '/api/v1/dns/zones';
const DOMAIN = 'workers.example';
const WORKERS = 2;
/** The bound this test sets on API change → answer, from every worker. */
const CHANGE_TO_ANSWER_MS = 2_000;

if (!DATABASE_URL || !REDIS_URL) {
  console.warn('dns-workers e2e skipped: needs DATABASE_URL and REDIS_URL (real PostgreSQL and Redis)');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Samples of `name{labels}` in a Prometheus text body, summed over series matching `labels`. */
function metric(body: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of body.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const text = m[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => text.includes(`${k}="${v}"`))) sum += Number(m[3]);
  }
  return sum;
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('DNS role on several cores (DNS_WORKERS=2)', () => {
  let stage: ProcessStage;
  let api: Proc;
  let dns: Proc;
  let apiUrl: string;
  let opsUrl: string;
  let dnsPort: number;
  let dnsDataDir: string;
  let token: string;
  let zoneId: number;
  let wwwId: number;
  const scrape = async (): Promise<string> => (await fetch(`${opsUrl}/metrics`)).text();
  const workerPid = async (index: number): Promise<number> =>
    Number(
      (await dns.waitFor((l) => l.msg === 'DNS worker listening' && l.worker === index, 60_000)).workerPid,
    );

  beforeAll(async () => {
    stage = await openProcessStage('workers');
    const shared = { ...stage.env, DNSSEC_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    api = startProcess({ ...shared, ROLE: 'api', DATA_DIR: stage.dataDir() });
    apiUrl = String((await api.waitFor((l) => l.msg === 'API listening', 60_000)).url);
    const call = <T>(method: string, p: string, body?: unknown, bearer = token): Promise<T> =>
      callApi<T>(apiUrl, method, p, body, bearer);
    token = await stage.signUp(apiUrl);
    zoneId = (await call<{ id: number }>('POST', ZONES, { domain: DOMAIN })).id;
    wwwId = (
      await call<{ id: number }>('POST', `${ZONES}/${zoneId}/records`, {
        name: 'www',
        type: 'A',
        content: '192.0.2.1',
        ttl: 60,
      })
    ).id;

    dnsDataDir = stage.dataDir();
    dns = startProcess({ ...shared, ROLE: 'dns', DNS_WORKERS: String(WORKERS), DATA_DIR: dnsDataDir });
    opsUrl = String((await dns.waitFor((l) => l.msg === 'ops endpoints listening', 60_000)).url);
    dnsPort = Number((await dns.waitFor((l) => l.msg === 'DNS listening', 90_000)).port);
  }, 120_000);

  afterAll(async () => stage?.close(), 30_000);

  it('every worker answers over UDP and TCP; /metrics shows both workers and sums their counts', async () => {
    expect((await fetch(`${opsUrl}/readyz`)).status).toBe(200);
    const before = await scrape();
    expect(metric(before, 'dns_workers')).toBe(WORKERS);
    expect(metric(before, 'dns_worker_restarts_total')).toBe(0);
    expect(metric(before, 'dns_zones_loaded')).toBe(1);
    const servedBefore = metric(before, 'dns_queries_total', { zone: 'served' });
    const perWorker = (body: string): number[] =>
      Array.from({ length: WORKERS }, (_, i) =>
        metric(body, 'dns_worker_queries_total', { worker: String(i) }),
      );

    const N = 40;
    for (const transport of ['udp', 'tcp'] as const) {
      const start = perWorker(await scrape());
      // UDP from 40 client networks (127.0.i.1): the port steers by source network (RRL is on).
      for (let i = 0; i < N; i++)
        expect(await ask(dnsPort, `www.${DOMAIN}`, transport, 500, `127.0.${i}.1`)).toEqual(['192.0.2.1']);
      const body = await scrape();
      const end = perWorker(body);
      // Each worker answered some of them (UDP: steered by network; TCP: round robin).
      for (let w = 0; w < WORKERS; w++)
        expect(end[w]! - start[w]!, `${transport} worker ${w}`).toBeGreaterThan(0);
      expect(end.reduce((a, b) => a + b) - start.reduce((a, b) => a + b)).toBe(N);
    }
    const after = await scrape();
    expect(
      metric(after, 'dns_queries_total', { zone: 'served', rcode: 'NOERROR', transport: 'udp' }),
    ).toBeGreaterThanOrEqual(N);
    expect(metric(after, 'dns_queries_total', { zone: 'served' }) - servedBefore).toBe(2 * N);
    // The answers came from each worker's answer caches (one for UDP, one made on the first TCP
    // query with a quarter of the bound) once it had seen the question twice (a question is
    // stored on its second miss).
    const cache = (body: string, result: string): number =>
      metric(body, 'dns_answer_cache_lookups_total', { result });
    expect(cache(after, 'hit') - cache(before, 'hit')).toBeGreaterThanOrEqual(2 * (N - 2 * WORKERS));
    expect(cache(after, 'hit') + cache(after, 'miss') - cache(before, 'hit') - cache(before, 'miss')).toBe(
      2 * N,
    );
    expect(metric(after, 'dns_answer_cache_bound_bytes')).toBe(WORKERS * (32 + 8) * 1024 * 1024);
  }, 60_000);

  it(`an API change reaches the answers of every worker within ${CHANGE_TO_ANSWER_MS} ms`, async () => {
    const sent = Date.now();
    const res = await fetch(`${apiUrl}${ZONES}/${zoneId}/records/${wwwId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'www', type: 'A', content: '192.0.2.2', ttl: 60 }),
    });
    expect(res.status, await res.text()).toBe(200);
    // Converged: 10 answers in a row over each transport carry the change (TCP alternates workers).
    let streak = 0;
    const convergedMs = await until(
      'change served',
      async () => {
        const transport = streak % 2 === 0 ? 'udp' : 'tcp';
        const a = await ask(dnsPort, `www.${DOMAIN}`, transport);
        streak = a?.[0] === '192.0.2.2' ? streak + 1 : 0;
        return streak >= 20 ? Date.now() - sent : undefined;
      },
      CHANGE_TO_ANSWER_MS + 3_000,
      5,
    );
    console.info(`dns-workers e2e: API change → answer from every worker in ${convergedMs} ms`);
    expect(convergedMs).toBeLessThanOrEqual(CHANGE_TO_ANSWER_MS);
    // Every worker serves the change: each answers part of 40 more queries, all of them new.
    const counts = (body: string): number[] =>
      Array.from({ length: WORKERS }, (_, i) =>
        metric(body, 'dns_worker_queries_total', { worker: String(i) }),
      );
    const start = counts(await scrape());
    for (let i = 0; i < 40; i++) {
      expect(await ask(dnsPort, `www.${DOMAIN}`, i % 2 === 0 ? 'udp' : 'tcp')).toEqual(['192.0.2.2']);
    }
    const end = counts(await scrape());
    for (let w = 0; w < WORKERS; w++) expect(end[w]! - start[w]!).toBeGreaterThan(0);
    // Each worker measured the bus lag of the change's event (the API stamps it when publishing).
    const lag = await scrape();
    expect(metric(lag, 'dns_bus_lag_seconds_count')).toBeGreaterThanOrEqual(WORKERS);
    expect(metric(lag, 'dns_bus_lag_seconds_bucket', { le: '+Inf' })).toBe(
      metric(lag, 'dns_bus_lag_seconds_count'),
    );
  }, 30_000);

  it('replaces a worker killed with SIGKILL while the port keeps answering', async () => {
    const victim = await workerPid(1);
    const survivor = await workerPid(0);
    const before = await scrape();
    const queriesBefore = metric(before, 'dns_queries_total');
    // Queries throughout, one at a time, alternating transports.
    const outcomes: { at: number; ok: boolean }[] = [];
    let querying = true;
    const querier = (async () => {
      for (let i = 0; querying; i++) {
        const a = await ask(dnsPort, `www.${DOMAIN}`, i % 2 === 0 ? 'udp' : 'tcp', 300);
        outcomes.push({ at: Date.now(), ok: a?.[0] === '192.0.2.2' });
      }
    })();
    await until('queries flowing', async () => (outcomes.length >= 10 ? true : undefined), 5_000);
    const killedAt = Date.now();
    process.kill(victim, 'SIGKILL');
    const replacement = await dns.waitFor(
      (l) => l.msg === 'DNS worker listening' && l.worker === 1 && l.workerPid !== victim,
      30_000,
    );
    const restartMs = Number(replacement.time) - killedAt;
    const replacementPid = Number(replacement.workerPid);
    const body = await until(
      'dns_worker_restarts_total 1 and dns_workers 2',
      async () => {
        const b = await scrape();
        return metric(b, 'dns_worker_restarts_total') === 1 && metric(b, 'dns_workers') === WORKERS
          ? b
          : undefined;
      },
      10_000,
    );
    // Rounds after the replacement listens (and has settled for 200 ms), then stop querying.
    const settled = Number(replacement.time) + 200;
    await until(
      'queries after the restart',
      async () => (outcomes.filter((o) => o.at > settled).length >= 40 ? true : undefined),
      10_000,
    );
    querying = false;
    await querier;

    const during = outcomes.filter((o) => o.at > killedAt && o.at <= Number(replacement.time));
    const after = outcomes.filter((o) => o.at > settled);
    const lost = outcomes.filter((o) => o.at > killedAt && !o.ok).length;
    console.info(
      `dns-workers e2e: replacement listening ${restartMs} ms after SIGKILL; ` +
        `${during.filter((o) => o.ok).length}/${during.length} answered meanwhile, ${lost} unanswered in all`,
    );
    expect(alive(victim)).toBe(false);
    expect(alive(replacementPid)).toBe(true);
    expect(alive(survivor)).toBe(true);
    // The port kept answering while the worker was down, and everything after the restart.
    expect(during.filter((o) => o.ok).length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((o) => o.ok)).toBe(true);
    // Counters stay monotonic: the dead worker's counts are kept in the sums.
    expect(metric(body, 'dns_queries_total')).toBeGreaterThanOrEqual(queriesBefore);
    expect((await fetch(`${opsUrl}/readyz`)).status).toBe(200);
  }, 60_000);

  it('SIGHUP changes nothing; SIGTERM stops the workers and exits 0', async () => {
    dns.child.kill('SIGHUP');
    expect(await ask(dnsPort, `www.${DOMAIN}`, 'udp')).toEqual(['192.0.2.2']);
    const pids = dns.lines
      .filter((l) => l.msg === 'DNS worker listening')
      .map((l) => Number(l.workerPid))
      .filter(alive);
    expect(pids).toHaveLength(WORKERS);
    const t0 = Date.now();
    dns.child.kill('SIGTERM');
    expect(await dns.exited).toBe(0);
    console.info(`dns-workers e2e: SIGTERM → exit 0 in ${Date.now() - t0} ms`);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    // Worker 0 kept the snapshot file (the cold-start fallback) current, flushed on stop.
    const snapshot = readFileSync(path.join(dnsDataDir, SNAPSHOT_FILE_NAME), 'utf8');
    expect(snapshot).toContain(`"domain":"${DOMAIN}"`);
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  }, 30_000);
});
