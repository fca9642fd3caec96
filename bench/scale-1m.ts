/**
 * A 1M-record zone, ours against Knot in the same run: for each round, ours cold-started from its
 * snapshot file (bench/serve-snapshot-file.ts, the database unreachable; bundled and run with the
 * node flags of `npm start`, as a DNS node runs: productNode) and Knot from its zone
 * file (startKnotWith of bench/dnsperf-runner.ts, one UDP and TCP worker), each in a fresh process,
 * alternating which goes first. Per server and round: the time from process start to the first
 * authoritative answer to an SOA query (both polled the same way: 200 ms query timeout, 50 ms
 * pause after a not-yet-authoritative answer), then the resident set (VmRSS) and its peak (VmHWM)
 * of the server process right after that answer, and the resident set again SETTLE_MS later (what
 * the process keeps once garbage of the load is collected). Ratios are ours ÷ Knot per round.
 * The zone is bench/zone-generator.ts's (A, AAAA, MX, TXT, CNAME aliases, delegations with glue).
 * `tsx bench/scale-1m.ts [--rounds 3] [--hosts 660000] [--out bench/results/<file>.json]`;
 * `npm run bench` runs it in its scale part.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import dnsPacket from 'dns-packet';
import { zoneDataFromText } from '../src/dns/index.ts';
import { queryUdp } from '../src/testing/dns-client.ts';
import { freePort } from '../src/testing/free-port.ts';
import { SNAPSHOT_FILE_NAME, SnapshotFile } from '../src/nodes/dns/snapshot-file.ts';
import { ORIGIN, median, startKnotWith } from './dnsperf-runner.ts';
import { generateZone } from './zone-generator.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Hosts of the generated zone giving about 1,000,000 records (1.52 records a host on average). */
export const HOSTS_1M = 660_000;
const START_TIMEOUT_MS = 120_000;
const POLL_TIMEOUT_MS = 200;
/** From the first answer to the settled resident set. */
const SETTLE_MS = 2000;
const MiB = 1024 * 1024;

export interface ServerStart {
  /** Process start to the first authoritative SOA answer, ms. */
  readonly startMs: number;
  /** Resident set of the server process right after that answer, and its peak so far, MiB. */
  readonly rssMiB: number;
  readonly peakRssMiB: number;
  /** Resident set SETTLE_MS after the first answer, MiB. */
  readonly settledRssMiB: number;
}

export interface Scale1mRound {
  readonly round: number;
  readonly first: 'ours' | 'knot';
  readonly ours: ServerStart;
  readonly knot: ServerStart;
  readonly rssRatio: number;
  readonly settledRssRatio: number;
  readonly startRatio: number;
}

export interface Scale1mResult {
  readonly records: number;
  readonly zoneFileMiB: number;
  readonly snapshotFileMiB: number;
  /** Writing the snapshot file from the parsed zone (SnapshotFile), ms. */
  readonly snapshotWriteMs: number;
  readonly rounds: Scale1mRound[];
  readonly median: {
    rssRatio: number;
    settledRssRatio: number;
    startRatio: number;
    oursRssMiB: number;
    knotRssMiB: number;
    oursStartMs: number;
    knotStartMs: number;
  };
}

function memMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Polls the SOA of ORIGIN until an authoritative NOERROR answer (as src/testing/knot-server.ts does). */
async function untilAnswered(port: number, alive: () => boolean): Promise<void> {
  const probe = dnsPacket.encode({
    type: 'query',
    id: 4243,
    questions: [{ name: ORIGIN, type: 'SOA', class: 'IN' }],
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && alive()) {
    const { response } = await queryUdp(probe, {
      host: '127.0.0.1',
      port,
      timeoutMs: POLL_TIMEOUT_MS,
      retries: 0,
    });
    if (
      response !== null &&
      response.length >= 12 &&
      (response[3]! & 0x0f) === 0 &&
      (response[2]! & 0x04) !== 0
    )
      return;
    if (response !== null) await new Promise<void>((r) => setTimeout(r, POLL_TIMEOUT_MS / 4));
  }
  throw new Error('server did not answer');
}

/**
 * How a DNS node runs ours: bench/serve-snapshot-file.ts bundled by tools/bundle.mjs into dist/bench
 * (as `npm start` bundles the product in place, so packages resolve from node_modules; no
 * TypeScript loader in the process), with the node flags of package.json's start script. Answers
 * node's arguments before the script's own.
 */
function productNode(): string[] {
  const root = path.join(HERE, '..');
  const dir = path.join(root, 'dist', 'bench');
  execFileSync(process.execPath, [
    path.join(root, 'tools', 'bundle.mjs'),
    '--entry',
    path.join(HERE, 'serve-snapshot-file.ts'),
    '--outdir',
    dir,
  ]);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const flags = /exec node ((?:--\S+ )*)dist\/main\.js/.exec(pkg.scripts.start)?.[1]?.trim().split(' ') ?? [];
  if (flags.length === 0) throw new Error('node flags of npm start not found');
  return [...flags, path.join(dir, 'serve-snapshot-file.js')];
}

async function startOursFromSnapshot(node: readonly string[], file: string): Promise<ServerStart> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...node, '--file', file, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  createInterface({ input: child.stdout! }).on('line', () => {});
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    await untilAnswered(port, () => !exited);
    const startMs = performance.now() - started;
    const m = memMiB(child.pid!);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { startMs, rssMiB: m.rss, peakRssMiB: m.peak, settledRssMiB: memMiB(child.pid!).rss };
  } finally {
    if (!exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    }
  }
}

async function startKnotFromZoneFile(text: string): Promise<ServerStart> {
  const started = performance.now();
  const knot = await startKnotWith(text, 1);
  try {
    const startMs = performance.now() - started;
    const m = memMiB(knot.pid);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { startMs, rssMiB: m.rss, peakRssMiB: m.peak, settledRssMiB: memMiB(knot.pid).rss };
  } finally {
    await knot.stop();
  }
}

export async function runScale1m(
  options: { rounds: number; hosts?: number },
  log: (line: string) => void,
): Promise<Scale1mResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'scale-1m-'));
  try {
    const zone = generateZone({ origin: ORIGIN, hostCount: options.hosts ?? HOSTS_1M });
    const data = zoneDataFromText({ id: 1, domain: ORIGIN, text: zone.text });
    const records = data.records.length;
    const file = path.join(dir, SNAPSHOT_FILE_NAME);
    const snapshot = new SnapshotFile(file, { debounceMs: 0 });
    const t0 = performance.now();
    snapshot.upsert(data);
    await snapshot.flush();
    const snapshotWriteMs = Math.round(performance.now() - t0);
    log(`scale 1M: ${records} records, snapshot file written in ${snapshotWriteMs} ms`);
    const node = productNode();
    const rounds: Scale1mRound[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const first = round % 2 === 1 ? 'ours' : 'knot';
      let ours: ServerStart;
      let knot: ServerStart;
      if (first === 'ours') {
        ours = await startOursFromSnapshot(node, file);
        knot = await startKnotFromZoneFile(zone.text);
      } else {
        knot = await startKnotFromZoneFile(zone.text);
        ours = await startOursFromSnapshot(node, file);
      }
      const r: Scale1mRound = {
        round,
        first,
        ours,
        knot,
        rssRatio: ours.rssMiB / knot.rssMiB,
        settledRssRatio: ours.settledRssMiB / knot.settledRssMiB,
        startRatio: ours.startMs / knot.startMs,
      };
      rounds.push(r);
      log(
        `scale 1M r${round}: ours ${Math.round(ours.rssMiB)} MiB ${Math.round(ours.startMs)} ms, knot ${Math.round(knot.rssMiB)} MiB ${Math.round(knot.startMs)} ms; rss ÷ knot ${r.rssRatio.toFixed(2)} (settled ${r.settledRssRatio.toFixed(2)}), start ÷ knot ${r.startRatio.toFixed(2)}`,
      );
    }
    return {
      records,
      zoneFileMiB: Buffer.byteLength(zone.text) / MiB,
      snapshotFileMiB: statSync(file).size / MiB,
      snapshotWriteMs,
      rounds,
      median: {
        rssRatio: median(rounds.map((r) => r.rssRatio)),
        settledRssRatio: median(rounds.map((r) => r.settledRssRatio)),
        startRatio: median(rounds.map((r) => r.startRatio)),
        oursRssMiB: median(rounds.map((r) => r.ours.rssMiB)),
        knotRssMiB: median(rounds.map((r) => r.knot.rssMiB)),
        oursStartMs: median(rounds.map((r) => r.ours.startMs)),
        knotStartMs: median(rounds.map((r) => r.knot.startMs)),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      hosts: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const result = await runScale1m(
    { rounds: Number(values.rounds), ...(values.hosts ? { hosts: Number(values.hosts) } : {}) },
    (l) => console.error(l),
  );
  const json = `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...result }, null, 2)}\n`;
  if (values.out) writeFileSync(values.out, json);
  console.log(json);
}
