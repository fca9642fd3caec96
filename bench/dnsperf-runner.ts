/**
 * A/B benchmark of our server against Knot DNS with dnsperf, on the same generated zone and
 * query file. For each worker count (ours: startDnsWorkers / in-process for 1; Knot: udp-workers
 * and tcp-workers = N) and each transport, alternates rounds (ours, knot) ROUNDS times; per round
 * records queries/s, average latency, losses and server CPU µs per query (bench/dnsperf-measure.ts).
 * Then one paced `-v` run per server for p50/p99 latency. Prints a table with medians and ratios
 * to Knot, and writes bench/results/<date>-dnsperf.json.
 * Ours runs twice by default: `ours` (node:dgram UDP) and `native` (batch addon, if built:
 * `npx node-gyp rebuild -C native`; without it `native` silently measures the dgram path again).
 * `tsx bench/dnsperf-runner.ts [--seconds 10] [--rounds 3] [--workers 1,2] [--transports udp,tcp]
 *  [--ours ours,native] [--clients 4] [--tcp-clients 4] [--qps N] [--latency-qps 20000] [--latency-seconds 3]`
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '../src/testing/free-port.ts';
import { startKnot } from '../src/testing/knot-server.ts';
import { measure, measureLatency } from './dnsperf-measure.ts';
import type { LatencyPercentiles, Measurement, Transport } from './dnsperf-measure.ts';
import { generateQueries } from './query-generator.ts';
import { generateZone } from './zone-generator.ts';

export const ORIGIN = 'bench.example';
/** The signed zone of the macro suite's signed workloads. */
export const SIGNED_ORIGIN = 'signed.example';
const READY_TIMEOUT_MS = 60_000;
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** `ours` serves UDP with node:dgram, `native` with the batch addon (native/), `knot` is Knot. */
export type ServerName = 'ours' | 'native' | 'knot';

interface RoundResult extends Measurement {
  server: ServerName;
  workers: number;
  transport: Transport;
  round: number;
}

/** A server under test: its process id (for CPU time), port and how to stop it. */
export interface Running {
  pid: number;
  port: number;
  stop(): Promise<void>;
}

/** Starts bench/serve-zone-file.ts on a free port; resolves once it prints `ready`. */
export async function startOurs(
  zoneFile: string,
  workers: number,
  native: boolean,
  extraArgs: string[] = [],
): Promise<Running> {
  const port = await freePort();
  const script = path.join(HERE, 'serve-zone-file.ts');
  const args = ['--import', 'tsx', script, '--zone', zoneFile, '--origin', ORIGIN, '--port', String(port)];
  args.push('--workers', String(workers), ...extraArgs);
  if (native) args.push('--native');
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('our server did not become ready')), READY_TIMEOUT_MS);
    child.once('exit', (c) => reject(new Error(`our server exited ${c}`)));
    lines.on('line', (l) => {
      if (l.startsWith('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    pid: child.pid!,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Knot's signing policy for `signed` zones: ECDSA P-256 (RFC 6605) and NSEC3 with RFC 9276's
 * parameters (no salt, no extra iterations, no opt-out): the denial the product's zones sign with.
 */
export const KNOT_SIGNING_POLICY = {
  id: 'p256',
  algorithm: 'ecdsap256sha256',
  nsec3: 'on',
  'nsec3-iterations': 0,
  'nsec3-salt-length': 0,
  'nsec3-opt-out': 'off',
} as const;

/**
 * Starts Knot on the zone text with `workers` UDP and TCP workers; `signed` zones are served too,
 * signed by Knot itself (KNOT_SIGNING_POLICY).
 */
export async function startKnotWith(
  zoneText: string,
  workers: number,
  signed: ReadonlyArray<{ domain: string; text: string }> = [],
): Promise<Running> {
  const knot = await startKnot({
    zones: [
      { domain: ORIGIN, text: zoneText },
      ...signed.map((z) => ({ ...z, dnssecPolicy: KNOT_SIGNING_POLICY.id })),
    ],
    policies: signed.length > 0 ? [KNOT_SIGNING_POLICY] : [],
    serverOptions: [`udp-workers: ${workers}`, `tcp-workers: ${workers}`, 'background-workers: 1'],
  });
  return { pid: knot.pid, port: knot.port, stop: () => knot.stop() };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      workers: { type: 'string', default: '1,2' },
      transports: { type: 'string', default: 'udp,tcp' },
      clients: { type: 'string', default: '4' },
      ours: { type: 'string', default: 'ours,native' },
      'tcp-clients': { type: 'string', default: '4' },
      qps: { type: 'string' },
      'latency-qps': { type: 'string', default: '20000' },
      'latency-seconds': { type: 'string', default: '3' },
    },
  });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const workerCounts = values.workers!.split(',').map(Number);
  const transports = values.transports!.split(',') as Transport[];
  const latencyQps = Number(values['latency-qps']);
  const serverNames = [...(values.ours!.split(',') as ServerName[]), 'knot' as const];
  const dir = mkdtempSync(path.join(tmpdir(), 'dnsperf-bench-'));
  const zone = generateZone({ origin: ORIGIN });
  const zoneFile = path.join(dir, 'bench.zone');
  const queryFile = path.join(dir, 'queries.txt');
  writeFileSync(zoneFile, zone.text);
  writeFileSync(queryFile, generateQueries(zone));
  const results: RoundResult[] = [];
  const latency: Array<LatencyPercentiles & { server: ServerName; workers: number; transport: Transport }> =
    [];

  try {
    for (const workers of workerCounts) {
      const servers: Partial<Record<ServerName, Running>> = {};
      for (const name of serverNames) {
        servers[name] =
          name === 'knot'
            ? await startKnotWith(zone.text, workers)
            : await startOurs(zoneFile, workers, name === 'native');
      }
      try {
        for (const transport of transports) {
          const clients = Number(transport === 'tcp' ? values['tcp-clients'] : values.clients);
          const base = { queryFile, seconds, transport, clients };
          const maxQps = values.qps === undefined ? undefined : Number(values.qps);
          for (let round = 1; round <= rounds; round++) {
            for (const server of serverNames) {
              const s = servers[server]!;
              const m = await measure({ ...base, port: s.port, maxQps }, s.pid);
              results.push({ server, workers, transport, round, ...m });
              console.log(
                `${server} w${workers} ${transport} r${round}: ${m.qps.toFixed(0)} q/s, ${m.cpuUsPerQuery.toFixed(2)} µs/q, lost ${m.lost}`,
              );
            }
          }
          for (const server of serverNames) {
            const run = { ...base, seconds: Number(values['latency-seconds']), port: servers[server]!.port };
            latency.push({
              server,
              workers,
              transport,
              ...(await measureLatency({ ...run, maxQps: latencyQps })),
            });
          }
        }
      } finally {
        await Promise.all(Object.values(servers).map((s) => s.stop()));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const summary = [];
  for (const workers of workerCounts) {
    for (const transport of transports) {
      const pick = (server: ServerName) => {
        const rs = results.filter(
          (r) => r.server === server && r.workers === workers && r.transport === transport,
        );
        const lat = latency.find(
          (l) => l.server === server && l.workers === workers && l.transport === transport,
        );
        return {
          qps: median(rs.map((r) => r.qps)),
          cpuUsPerQuery: median(rs.map((r) => r.cpuUsPerQuery)),
          avgLatencyMs: median(rs.map((r) => r.avgLatencyMs)),
          lost: rs.reduce((a, r) => a + r.lost, 0),
          p50Ms: lat?.p50Ms ?? NaN,
          p99Ms: lat?.p99Ms ?? NaN,
        };
      };
      const knot = pick('knot');
      for (const server of serverNames) {
        const x = pick(server);
        summary.push({
          server,
          workers,
          transport,
          ...x,
          qpsRatioToKnot: x.qps / knot.qps,
          cpuRatioToKnot: x.cpuUsPerQuery / knot.cpuUsPerQuery,
        });
      }
    }
  }
  console.log(`\nserver workers transport      q/s   µs/q  p50 ms  p99 ms   lost | q/s ÷ knot  cpu ÷ knot`);
  for (const x of summary) {
    console.log(
      `${x.server.padEnd(6)} ${String(x.workers).padStart(7)} ${x.transport.padEnd(9)} ${x.qps.toFixed(0).padStart(8)} ${x.cpuUsPerQuery.toFixed(2).padStart(6)} ${x.p50Ms.toFixed(2).padStart(7)} ${x.p99Ms.toFixed(2).padStart(7)} ${String(x.lost).padStart(6)} | ${x.qpsRatioToKnot.toFixed(2).padStart(10)} ${x.cpuRatioToKnot.toFixed(2).padStart(11)}`,
    );
  }
  const resultsDir = path.join(HERE, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${new Date().toISOString().slice(0, 10)}-dnsperf.json`);
  const settings = {
    seconds,
    rounds,
    workers: workerCounts,
    transports,
    clients: Number(values.clients),
    servers: serverNames,
    tcpClients: Number(values['tcp-clients']),
    qps: values.qps ?? null,
    latencyQps,
    zoneNames: zone.hosts.length + zone.aliases.length + zone.delegations.length,
    node: process.version,
  };
  writeFileSync(file, `${JSON.stringify({ settings, results, latency, summary }, null, 2)}\n`);
  console.log(`wrote ${file}`);
}

// Also a module (bench/run.ts reuses the server starters): run only when invoked as a script.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
