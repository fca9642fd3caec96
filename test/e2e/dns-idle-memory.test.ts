/**
 * Resident memory of a DNS node's main process, as an operator starts it (`npm start`, the bundle)
 * with ROLE=dns on PostgreSQL and 10,000 records: below 150 MiB 5 s after it listens, whether it
 * serves in-process (DNS_WORKERS=0) or supervises its workers (the default). Read from
 * /proc/<pid>/status (VmRSS). Needs DATABASE_URL and REDIS_URL; skipped without them.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openProcessStage, type ProcessStage } from '../../src/testing/process-stage.ts';
import { callApi, startProcess, type Proc } from '../../src/testing/product-process.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const RECORDS = 10_000;
const LIMIT_MIB = 150;

/** VmRSS of `pid`, MiB. */
function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

/** The product's main process under npm: npm's child that runs dist/main.js. */
function mainProcess(npmPid: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (parent === npmPid && argv.some((a) => a.endsWith('dist/main.js'))) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no dist/main.js process under npm (${npmPid})`);
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)('DNS node memory with 10,000 records (PostgreSQL)', () => {
  let stage: ProcessStage;
  let shared: Record<string, string>;

  beforeAll(async () => {
    stage = await openProcessStage('dnsmem');
    shared = { ...stage.env, SEALING_KEY: randomBytes(32).toString('base64') };
    const api = startProcess({ ...shared, ROLE: 'api', DATA_DIR: stage.dataDir() });
    const url = String((await api.waitFor((l) => l.msg === 'API listening', 60_000)).url);
    const token = await stage.signUp(url);
    const zone = await callApi<{ id: number }>(
      url,
      'POST',
      '/api/v1/dns/zones',
      { domain: 'mem.example' },
      token,
    );
    const lines = Array.from(
      { length: RECORDS },
      (_, i) => `h${i} 300 IN A 93.184.${(i >> 8) & 255}.${i & 255}`,
    );
    await callApi(url, 'POST', `/api/v1/dns/zones/${zone.id}/import`, { zone_file: lines.join('\n') }, token);
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  }, 180_000);

  afterAll(async () => stage?.close(), 30_000);

  for (const workers of ['0', 'auto']) {
    it(`ROLE=dns, DNS_WORKERS=${workers}: the main process stays below ${LIMIT_MIB} MiB`, async () => {
      const dns: Proc = startProcess(
        { ...shared, ROLE: 'dns', DNS_WORKERS: workers, DATA_DIR: stage.dataDir() },
        'npm start',
      );
      await dns.waitFor((l) => l.msg === 'zones loaded' && l.zones === 1, 120_000);
      await dns.waitFor((l) => l.msg === 'DNS listening', 60_000);
      await new Promise((r) => setTimeout(r, 5_000));
      const rss = residentMiB(mainProcess(dns.child.pid!));
      expect(rss, `main process ${rss.toFixed(1)} MiB`).toBeLessThan(LIMIT_MIB);
      dns.child.kill('SIGTERM');
      expect(await dns.exited).toBe(0);
    }, 240_000);
  }
});
