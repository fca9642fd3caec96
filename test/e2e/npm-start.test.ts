/**
 * `npm start` exactly as an operator runs it: npm builds the bundle (tools/bundle.mjs) and runs
 * dist/main.js. On the embedded default it serves the API and exits 0 on SIGINT; on PostgreSQL and
 * Redis, as ROLE=dns with two workers (which run dist/dns-worker.js), every worker answers and
 * SIGTERM through npm stops the whole group with exit code 0.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import dnsPacket from 'dns-packet';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { queryUdp } from '../../src/testing/dns-client.ts';
import { killProductProcesses, startProcess } from '../../src/testing/product-process.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const dirs: string[] = [];

afterAll(async () => {
  await killProductProcesses();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dns-start-'));
  dirs.push(dir);
  return dir;
}

describe('npm start', () => {
  it('serves the API on the embedded default and exits 0 on SIGINT', async () => {
    const proc = startProcess({ DATA_DIR: tempDir() }, 'npm start');
    const url = String((await proc.waitFor((l) => l.msg === 'API listening', 90_000)).url);
    const res = await fetch(`${url}/api/v1/locations`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBeGreaterThan(30);
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  }, 120_000);

  it.skipIf(!DATABASE_URL || !REDIS_URL)(
    'runs ROLE=dns with two bundled workers that answer, and stops them all on SIGTERM',
    async () => {
      const schema = `npmstart_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA "${schema}"`);
        const url = new URL(DATABASE_URL!);
        url.searchParams.set('options', `-c search_path=${schema}`);
        const proc = startProcess(
          {
            ROLE: 'dns',
            DNS_WORKERS: '2',
            DATABASE_URL: url.toString(),
            REDIS_URL: REDIS_URL!,
            DATA_DIR: tempDir(),
          },
          'npm start',
        );
        const workers = await Promise.all(
          [0, 1].map((worker) =>
            proc.waitFor((l) => l.msg === 'DNS worker listening' && l.worker === worker, 90_000),
          ),
        );
        const port = Number((await proc.waitFor((l) => l.msg === 'DNS listening', 30_000)).port);
        const pids = workers.map((w) => Number(w.workerPid));
        // Plain JavaScript, no TypeScript loader: the bundle's worker script.
        for (const pid of pids) {
          const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          expect(argv.some((a) => a.endsWith(path.join('dist', 'dns-worker.js')))).toBe(true);
          expect(argv.some((a) => a.includes('tsx'))).toBe(false);
        }
        // Many source ports: the kernel spreads them over both workers (SO_REUSEPORT); each answers.
        const rcodes = new Set<string>();
        for (let i = 0; i < 20; i++) {
          const q = dnsPacket.encode({
            type: 'query',
            id: i + 1,
            questions: [{ type: 'A', name: 'nowhere.example' }],
          });
          const { decoded } = await queryUdp(q, { host: '127.0.0.1', port, timeoutMs: 2_000 });
          rcodes.add(String((decoded as { rcode?: string } | null)?.rcode));
        }
        expect([...rcodes]).toEqual(['REFUSED']);
        proc.child.kill('SIGTERM');
        expect(await proc.exited).toBe(0);
        for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      }
    },
    150_000,
  );
});
