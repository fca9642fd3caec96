/**
 * Scale part of `npm run bench`: snapshot build time and resident memory per zone size (each size
 * in its own process, bench/snapshot-scale-child.ts), the time from an API change to the new
 * answer on the wire (product started by startTestApp, queries from src/testing/dns-client.ts), and
 * the import of a 100,000-record zone file (bench/zone-import.bench.ts, run as it is), idle
 * resident memory per process of `npm start` and of `ROLE=dns` (bench/idle-memory.ts), and a
 * 1M-record zone against Knot: resident memory and start to first answer (bench/scale-1m.ts).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dnsPacket from 'dns-packet';
import { queryUdp } from '../src/testing/dns-client.ts';
import { startTestApp } from '../src/testing/test-app.ts';
import { percentile } from './dnsperf-measure.ts';
import type { SnapshotScaleResult } from './snapshot-scale-child.ts';
import { measureIdleMemory, type IdleMemory } from './idle-memory.ts';
import { runScale1m, type Scale1mResult } from './scale-1m.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Room for the 1M-record build, so an over-budget snapshot is measured instead of crashing. */
const CHILD_HEAP_MB = 8192;
const CHANGE_ZONE = 'change.example';
const PROBE_TIMEOUT_MS = 100;
/** Give up on one change after this long (counted as this value, and reported). */
const CHANGE_GIVE_UP_MS = 10_000;

export interface ScaleOptions {
  snapshotSizes: number[];
  changes: number;
  importRecords: number;
  /** Hosts of the zone served by ours and Knot (bench/scale-1m.ts; HOSTS_1M: 1M records), and rounds. */
  versusKnotHosts: number;
  versusKnotRounds: number;
}

export interface ChangeLatency {
  changes: number;
  /** From sending the API request to the first UDP answer carrying the new address, ms. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The API call alone (until its response), ms. */
  apiP50Ms: number;
  timedOut: number;
}

export interface ImportResult {
  records: number;
  /** Present when zone-import.bench.ts reports them (it is maintained separately). */
  parse_ms?: number;
  reload_ms?: number | null;
  record_change_p50_ms?: number | null;
  record_change_max_ms?: number | null;
  import_ms: number;
  import_and_reload_ms: number;
  ok: boolean;
  backend: string;
  [key: string]: unknown;
}

export interface ScaleResult {
  options: ScaleOptions;
  snapshots: SnapshotScaleResult[];
  change: ChangeLatency | null;
  import: ImportResult | null;
  idle: IdleMemory[];
  versusKnot: Scale1mResult | null;
  errors: string[];
}

/** Runs a tsx script in a child node and answers the last JSON line it printed. */
function runJsonChild<T>(script: string, args: string[], nodeFlags: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags, '--import', 'tsx', path.join(HERE, script), ...args],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out
        .trim()
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{'));
      if (code === 0 && line !== undefined) resolve(JSON.parse(line) as T);
      else reject(new Error(`${script} exited ${code}: ${out.slice(-1000)}`));
    });
  });
}

async function measureChanges(changes: number, log: (line: string) => void): Promise<ChangeLatency> {
  const t = await startTestApp();
  try {
    const { token } = await t.signUp();
    const zone = await t.request<{ id: number }>('POST', '/api/v1/dns/zones', {
      token,
      body: { domain: CHANGE_ZONE },
    });
    if (zone.status !== 201) throw new Error(`zone create: ${zone.status} ${zone.text}`);
    const records = `/api/v1/dns/zones/${zone.body.id}/records`;
    const rec = await t.request<{ id: number }>('POST', records, {
      token,
      body: { name: 'probe', type: 'A', content: '10.0.0.0', ttl: 60 },
    });
    if (rec.status !== 201) throw new Error(`record create: ${rec.status} ${rec.text}`);
    const port = t.node.dns!.udpPort;
    let id = 0;
    const answered = async (): Promise<string | null> => {
      id = (id + 1) & 0xffff;
      const q = dnsPacket.encode({
        type: 'query',
        id,
        questions: [{ type: 'A', name: `probe.${CHANGE_ZONE}` }],
      });
      const r = await queryUdp(q, { host: '127.0.0.1', port, timeoutMs: PROBE_TIMEOUT_MS, retries: 0 });
      const a = r.decoded?.answers?.find((x) => x.type === 'A');
      return a !== undefined && 'data' in a && typeof a.data === 'string' ? a.data : null;
    };
    const total: number[] = [];
    const api: number[] = [];
    let timedOut = 0;
    for (let i = 1; i <= changes; i++) {
      const address = `10.1.${i >> 8}.${i & 255}`;
      const started = performance.now();
      const put = t.request('PUT', `${records}/${rec.body.id}`, {
        token,
        body: { name: 'probe', type: 'A', content: address, ttl: 60 },
      });
      void put.then(() => api.push(performance.now() - started));
      // Poll the wire from the moment the request leaves: the answer may change before the API replies.
      let seen = false;
      while (performance.now() - started < CHANGE_GIVE_UP_MS) {
        if ((await answered()) === address) {
          seen = true;
          break;
        }
      }
      total.push(performance.now() - started);
      if (!seen) timedOut++;
      const res = await put;
      if (res.status !== 200) throw new Error(`record replace: ${res.status} ${res.text}`);
    }
    log(`scale: ${changes} API changes measured`);
    const sorted = Float64Array.from(total).sort();
    return {
      changes,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted[sorted.length - 1] ?? NaN,
      apiP50Ms: percentile(Float64Array.from(api).sort(), 50),
      timedOut,
    };
  } finally {
    await t.close();
  }
}

/** Runs the scale part; a failing sub-measurement is recorded in `errors`, the others still run. */
export async function runScale(options: ScaleOptions, log: (line: string) => void): Promise<ScaleResult> {
  const errors: string[] = [];
  const snapshots: SnapshotScaleResult[] = [];
  for (const size of options.snapshotSizes) {
    try {
      const r = await runJsonChild<SnapshotScaleResult>(
        'snapshot-scale-child.ts',
        [String(size)],
        ['--expose-gc', `--max-old-space-size=${CHILD_HEAP_MB}`],
      );
      snapshots.push(r);
      log(`scale: snapshot ${size} records: ${r.buildMs} ms, +${r.rssDeltaMiB.toFixed(0)} MiB`);
    } catch (error) {
      errors.push(`snapshot ${size}: ${String(error)}`);
    }
  }
  let change: ChangeLatency | null = null;
  try {
    change = await measureChanges(options.changes, log);
  } catch (error) {
    errors.push(`api change: ${String(error)}`);
  }
  let imported: ImportResult | null = null;
  try {
    imported = await runJsonChild<ImportResult>('zone-import.bench.ts', [String(options.importRecords)]);
    log(`scale: import of ${options.importRecords} records: ${imported.import_ms} ms`);
  } catch (error) {
    errors.push(`import: ${String(error)}`);
  }
  let idle: IdleMemory[] = [];
  try {
    // ROLE=dns alone needs PostgreSQL and Redis: measured when the environment names them.
    idle = await measureIdleMemory(
      10_000,
      process.env.DATABASE_URL ?? null,
      process.env.REDIS_URL ?? null,
      log,
    );
  } catch (error) {
    errors.push(`idle memory: ${String(error)}`);
  }
  let versusKnot: Scale1mResult | null = null;
  try {
    versusKnot = await runScale1m({ rounds: options.versusKnotRounds, hosts: options.versusKnotHosts }, log);
  } catch (error) {
    errors.push(`versus Knot: ${String(error)}`);
  }
  return { options, snapshots, change, import: imported, idle, versusKnot, errors };
}
