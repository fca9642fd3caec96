/**
 * Idle resident memory of the product as an operator starts it: `npm start` on the embedded
 * default, and `ROLE=dns` alone on PostgreSQL (with its DNS workers), each with 0 and 10,000
 * records, measured 5 s after it listens, per process of the group from /proc: npm and its shell
 * included, then the bundle `npm start` builds and runs, and its DNS workers. The records are imported through the API first (a ROLE=api process for PostgreSQL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SETTLE_MS = 5_000;

export interface IdleMemory {
  readonly setup: string;
  readonly records: number;
  /** Resident MiB of each process of the group (the main process first). */
  readonly processesMiB: number[];
  readonly totalMiB: number;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** The process and its descendants (from /proc's parent links). */
function group(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++)
    for (const [pid, parent] of parents) if (parent === out[i]) out.push(pid);
  return out;
}

function start(env: Record<string, string>): { child: ChildProcess; listening: Promise<string> } {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', API_PORT: '0', DNS_PORT: '0', EDGE_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const api = /"url":"(http:\/\/[^"]+)","msg":"API listening"/.exec(out);
      if (api) resolve(api[1]!);
      else if (/"msg":"DNS listening"/.test(out) && env.ROLE === 'dns') resolve('');
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out.slice(-2000)}`)));
  });
  return { child, listening };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Signs up and imports `records` A records into a zone through the API at `url`. */
async function fill(url: string, records: number): Promise<void> {
  const call = async (p: string, body: unknown, token?: string): Promise<Record<string, unknown>> => {
    const res = await fetch(url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const who = { email: `idle-${randomBytes(4).toString('hex')}@example.com`, password: 'a long password' };
  await call('/api/v1/auth/register', who);
  const token = String((await call('/api/v1/auth/login', who)).access_token);
  const zone = await call('/api/v1/dns/zones', { domain: 'idle.example' }, token);
  if (records === 0) return;
  const lines = Array.from(
    { length: records },
    (_, i) => `h${i} 300 IN A 93.184.${(i >> 8) & 255}.${i & 255}`,
  );
  await call(`/api/v1/dns/zones/${String(zone.id)}/import`, { zone_file: lines.join('\n') }, token);
}

async function measure(setup: string, records: number, child: ChildProcess): Promise<IdleMemory> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const processesMiB = group(child.pid!).map((pid) => Math.round(rssMiB(pid)));
  return { setup, records, processesMiB, totalMiB: processesMiB.reduce((a, b) => a + b, 0) };
}

/** Each setup with 0 and `records` records; ROLE=dns on PostgreSQL only when `databaseUrl` is given. */
export async function measureIdleMemory(
  records: number,
  databaseUrl: string | null,
  redisUrl: string | null,
  log: (line: string) => void,
): Promise<IdleMemory[]> {
  const results: IdleMemory[] = [];
  for (const n of [0, records]) {
    const dir = mkdtempSync(path.join(tmpdir(), 'idle-'));
    try {
      const node = start({ DATA_DIR: dir });
      await fill(await node.listening, n);
      // Restarted on its data, so the figure is a fresh start's, not the import's leftovers.
      await stop(node.child);
      const again = start({ DATA_DIR: dir });
      await again.listening;
      const r = await measure('npm start (embedded)', n, again.child);
      await stop(again.child);
      results.push(r);
      log(`idle memory: npm start, ${n} records: ${r.processesMiB.join(' + ')} MiB`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (databaseUrl === null || redisUrl === null) return results;
  for (const n of [0, records]) {
    const schema = `idle_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const shared = {
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      SEALING_KEY: randomBytes(32).toString('base64'),
    };
    const dirs = [
      mkdtempSync(path.join(tmpdir(), 'idle-api-')),
      mkdtempSync(path.join(tmpdir(), 'idle-dns-')),
    ];
    try {
      const api = start({ ...shared, ROLE: 'api', DATA_DIR: dirs[0]! });
      await fill(await api.listening, n);
      await stop(api.child);
      const dns = start({ ...shared, ROLE: 'dns', DATA_DIR: dirs[1]! });
      await dns.listening;
      const r = await measure('ROLE=dns on PostgreSQL (workers auto)', n, dns.child);
      await stop(dns.child);
      results.push(r);
      log(`idle memory: ROLE=dns, ${n} records: ${r.processesMiB.join(' + ')} MiB`);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    }
  }
  return results;
}

// Run alone: `tsx bench/idle-memory.ts [records]` (PostgreSQL and Redis from the environment).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const records = Number(process.argv[2] ?? 10_000);
  const results = await measureIdleMemory(
    records,
    process.env.DATABASE_URL ?? null,
    process.env.REDIS_URL ?? null,
    (line) => console.error(line),
  );
  console.log(JSON.stringify(results));
}
