/**
 * Macro part of `npm run bench` (dnsperf over loopback): the product started as a user starts it
 * (`src/apps/main.ts`, embedded database, native UDP as configured by default) with the generated
 * zone imported through the API, against Knot serving the zone file the product exports, so both
 * serve the same data (the platform replaces the apex SOA/NS on import). Optionally also
 * bench/serve-zone-file.ts (engine without the product around it).
 * Workloads (MACRO_WORKLOADS): mixed UDP queries at saturation and paced at a fixed rate, a UDP
 * flood of unique NXDOMAIN names, mixed TCP, and mixed UDP queries with DO set at a second zone
 * that each server signs itself (ours online, Knot with `dnssec-signing: on`; the `serve` server
 * does not sign and skips it). One DNS worker each; server and dnsperf pinned to
 * separate cores when the machine has two (taskset), so CPU per query is the server's own; rounds
 * alternate between servers; medians and spreads per server and workload.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dnsPacket from 'dns-packet';
import { queryUdp } from '../src/testing/dns-client.ts';
import { freePort } from '../src/testing/free-port.ts';
import { measure, measureLatency } from './dnsperf-measure.ts';
import type { Measurement, Transport } from './dnsperf-measure.ts';
import { ORIGIN, SIGNED_ORIGIN, startKnotWith, startOurs } from './dnsperf-runner.ts';
import { median, spreadPct } from './bench-stats.ts';
import type { Running } from './dnsperf-runner.ts';
import { generateNxFlood, generateQueries } from './query-generator.ts';
import { pinTree } from './dnsperf-measure.ts';
import { generateZone } from './zone-generator.ts';
import { prepareSteered } from './steered-workload.ts';
import type { ApiCall, SteeredWorkload } from './steered-workload.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MAIN = path.join(HERE, '..', 'src', 'apps', 'main.ts');
const READY_TIMEOUT_MS = 120_000;
const POLL_MS = 100;

/** `product`: src/apps/main.ts + API import; `serve`: bench/serve-zone-file.ts --native; `knot`. */
export type MacroServer = 'product' | 'serve' | 'knot';

/**
 * `udp`/`tcp`: the mixed query file as fast as the server answers; `udp@50k`: the same paced at
 * 50,000 queries/s (CPU below saturation); `udp-nx`: unique NXDOMAIN names at saturation;
 * `steered`: A queries with client subnets at load balancers (steered-workload.ts).
 */
/** Queries in flight on each TCP connection of the tcp workload. */
const TCP_IN_FLIGHT_PER_CONNECTION = 16;

/**
 * `signed`: the mixed names without unique NXDOMAIN ones at the signed zone, DO set; `signed-nx`:
 * unique NXDOMAIN names under the signed zone, DO set (a random-subdomain flood answered from the
 * zone's NSEC3 chain); `steered`: bench/steered-workload.ts.
 */
export const MACRO_WORKLOADS = ['udp', 'udp@50k', 'udp-nx', 'tcp', 'signed', 'signed-nx', 'steered'] as const;
export type MacroWorkload = (typeof MACRO_WORKLOADS)[number];
const PACED_QPS = 50_000;
/**
 * Unmeasured passes over the query file before the rounds of a signed workload (bounded by
 * SIGNED_WARMUP_MAX_SECONDS): ours signs on first ask and keeps an answer from its second ask on,
 * Knot signs the whole zone at load.
 */
const SIGNED_WARMUP_PASSES = 2;
const SIGNED_WARMUP_MAX_SECONDS = 60;

/** `signed`: the mixed names (no unique NXDOMAIN names) at the signed zone, DO set. */
function isSigned(w: MacroWorkload): boolean {
  return w.startsWith('signed');
}

function transportOf(w: MacroWorkload): Transport {
  return w === 'tcp' ? 'tcp' : 'udp';
}

export interface MacroOptions {
  seconds: number;
  rounds: number;
  servers: MacroServer[];
  workloads: MacroWorkload[];
  udpClients: number;
  tcpClients: number;
  /** Paced rate of the separate latency-percentile run. */
  latencyQps: number;
  latencySeconds: number;
  hostCount: number;
}

export interface MacroRound extends Measurement {
  server: MacroServer;
  workload: MacroWorkload;
  transport: Transport;
  round: number;
}

export interface MacroRow {
  server: MacroServer;
  workload: MacroWorkload;
  transport: Transport;
  qps: number;
  /** Mean and max latency of the closed-loop throughput runs (medians over rounds), ms. */
  meanLatencyMs: number;
  maxLatencyMs: number;
  /** Paced run (latencyQps): percentiles. */
  p50Ms: number;
  p99Ms: number;
  /** Sum over all rounds. */
  lost: number;
  cpuUsPerQuery: number;
  userUsPerQuery: number;
  /** (max − min) / median of q/s over rounds, percent. */
  qpsSpreadPct: number;
  /** (max − min) / median of CPU µs per query over rounds, percent. */
  cpuSpreadPct: number;
  /**
   * Median over rounds of this round's figure ÷ Knot's in the same round: rounds alternate, so a
   * pair shares the machine's load of that moment and the ratio drifts less than the figures.
   */
  qpsRatioToKnot: number;
  cpuRatioToKnot: number;
  /** Ratio of the medians, for reference. */
  qpsRatioOfMedians: number;
  cpuRatioOfMedians: number;
}

export interface MacroResult {
  options: MacroOptions;
  zone: { records: number; names: number; queries: number };
  rounds: MacroRound[];
  rows: MacroRow[];
  /** Server and dnsperf ran on separate cores. */
  pinned: boolean;
}

async function waitFor<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * `npm start` with a fresh DATA_DIR on free ports, then sign-up, zone creation and import through
 * the API. Resolves once the DNS side answers a name of the imported zone; `zoneText` is the
 * product's own export of the zone (what Knot then serves).
 */
async function startProduct(
  zoneText: string,
  sampleName: string,
  log: (line: string) => void,
  signedZoneText: string | null,
  steered: SteeredWorkload | null = null,
): Promise<Running & { exported: string; signedExported: string | null }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-product-'));
  const apiPort = await freePort();
  const dnsPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    API_HOST: '127.0.0.1',
    API_PORT: String(apiPort),
    DNS_HOST: '127.0.0.1',
    DNS_PORT: String(dnsPort),
    // Listeners the bench does not use, on ports the system picks (the defaults may be taken).
    EDGE_PORT: '0',
    ACME_HTTP_PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // One DNS worker, as Knot gets one (the primary then only runs the API).
    DNS_WORKERS: '1',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    // No local compute or storage cluster (npm start runs both when QEMU and Ceph are installed):
    // the first builds a guest image in this process while the rounds run, the second is a Ceph
    // gateway among the product's children, pinned to the server's core with it — one of its
    // threads wakes thousands of times a second. Both would be counted as DNS.
    COMPUTE_LOCAL: 'off',
    OBJECT_STORAGE_LOCAL: 'off',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        rmSync(dataDir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
    });
  try {
    const api = `http://127.0.0.1:${apiPort}/api/v1`;
    const call: ApiCall = async (method, p, body, token) => {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      const res = await fetch(api + p, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, text };
    };
    const credentials = { email: 'bench@example.com', password: 'correct horse battery' };
    await waitFor('the product API', async () => {
      if (child.exitCode !== null) throw new Error(`product exited ${child.exitCode}`);
      const r = await call('POST', '/auth/register', credentials);
      return r.status === 201 ? r : null;
    });
    const login = await call('POST', '/auth/login', credentials);
    const token = (JSON.parse(login.text) as { access_token: string }).access_token;
    const zone = await call('POST', '/dns/zones', { domain: ORIGIN }, token);
    if (zone.status !== 201) throw new Error(`zone create: ${zone.status} ${zone.text}`);
    const zoneId = (JSON.parse(zone.text) as { id: number }).id;
    const started = performance.now();
    const imported = await call('POST', `/dns/zones/${zoneId}/import`, { zone_file: zoneText }, token);
    if (imported.status !== 200) throw new Error(`import: ${imported.status} ${imported.text.slice(0, 500)}`);
    const query = dnsPacket.encode({ type: 'query', id: 7, questions: [{ type: 'A', name: sampleName }] });
    await waitFor('the imported zone on DNS', async () => {
      const r = await queryUdp(query, { host: '127.0.0.1', port: dnsPort, timeoutMs: 200, retries: 0 });
      return (r.decoded?.answers?.length ?? 0) > 0 ? true : null;
    });
    log(`product: zone imported and served in ${Math.round(performance.now() - started)} ms`);
    if (steered !== null) {
      await steered.setup(call, token, zoneId);
      await waitFor('the load balancers on DNS', async () => {
        const r = await queryUdp(steered.probe, {
          host: '127.0.0.1',
          port: dnsPort,
          timeoutMs: 200,
          retries: 0,
        });
        return (r.decoded?.answers?.length ?? 0) > 0 ? true : null;
      });
    }
    const exported = await call('GET', `/dns/zones/${zoneId}/export`, undefined, token);
    if (exported.status !== 200) throw new Error(`export: ${exported.status}`);
    let signedExported: string | null = null;
    if (signedZoneText !== null) {
      // The signed zone: imported, then DNSSEC on (ECDSA P-256); ready once DNSKEY is answered.
      const z = await call('POST', '/dns/zones', { domain: SIGNED_ORIGIN }, token);
      if (z.status !== 201) throw new Error(`signed zone create: ${z.status} ${z.text}`);
      const id = (JSON.parse(z.text) as { id: number }).id;
      const imp = await call('POST', `/dns/zones/${id}/import`, { zone_file: signedZoneText }, token);
      if (imp.status !== 200) throw new Error(`signed import: ${imp.status} ${imp.text.slice(0, 500)}`);
      const on = { dnssec_enabled: true, dnssec_algorithm: 'ECDSAP256SHA256' };
      const patched = await call('PATCH', `/dns/zones/${id}`, on, token);
      if (patched.status !== 200) throw new Error(`dnssec on: ${patched.status} ${patched.text}`);
      await waitFor('the signed zone on DNS', () => signedReady(dnsPort));
      const e = await call('GET', `/dns/zones/${id}/export`, undefined, token);
      if (e.status !== 200) throw new Error(`signed export: ${e.status}`);
      signedExported = withoutDnssecRecords(e.text);
    }
    return { pid: child.pid!, port: dnsPort, stop, exported: exported.text, signedExported };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves true once the server answers the signed zone's DNSKEY with its RRSIG (DO set), else null. */
async function signedReady(port: number): Promise<true | null> {
  const query = dnsPacket.encode({
    type: 'query',
    id: 9,
    questions: [{ type: 'DNSKEY', name: SIGNED_ORIGIN }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: 1232,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: dnsPacket.DNSSEC_OK,
        flag_do: true,
        options: [],
      },
    ],
  });
  const r = await queryUdp(query, { host: '127.0.0.1', port, timeoutMs: 200, retries: 0 });
  return r.decoded?.answers?.some((a) => a.type === 'RRSIG') === true ? true : null;
}

/** A zone file without the records a signer makes (Knot signs the product's export itself). */
function withoutDnssecRecords(text: string): string {
  return text
    .split('\n')
    .filter((l) => !/\s(DNSKEY|RRSIG|NSEC|NSEC3|NSEC3PARAM|CDS|CDNSKEY)\s/.test(l))
    .join('\n');
}

/** Runs the macro part; `log` gets one line per measurement. */
export async function runMacro(options: MacroOptions, log: (line: string) => void): Promise<MacroResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-macro-'));
  const zone = generateZone({ origin: ORIGIN, hostCount: options.hostCount });
  const queryFile = path.join(dir, 'queries.txt');
  const queries = generateQueries(zone);
  writeFileSync(queryFile, queries);
  const nxFile = path.join(dir, 'nx-queries.txt');
  if (options.workloads.includes('udp-nx')) writeFileSync(nxFile, generateNxFlood(ORIGIN));
  // The signed zone: the same generated names under a second origin.
  const signedZone = options.workloads.some(isSigned)
    ? generateZone({ origin: SIGNED_ORIGIN, hostCount: options.hostCount })
    : null;
  const signedFile = path.join(dir, 'signed-queries.txt');
  if (signedZone !== null)
    writeFileSync(signedFile, generateQueries(signedZone, undefined, undefined, ['nx']));
  const signedNxFile = path.join(dir, 'signed-nx-queries.txt');
  if (options.workloads.includes('signed-nx')) writeFileSync(signedNxFile, generateNxFlood(SIGNED_ORIGIN));
  let pinned = false;
  const servers: Partial<Record<MacroServer, Running>> = {};
  const rounds: MacroRound[] = [];
  const latency = new Map<string, { p50Ms: number; p99Ms: number }>();
  let exported = zone.text;
  let signedExported = signedZone?.text ?? null;
  const steeredFile = path.join(dir, 'steered-queries.bin');
  const steered = options.workloads.includes('steered') ? await prepareSteered(steeredFile, ORIGIN) : null;
  try {
    // The product first: Knot and the engine-only server then serve the product's export.
    if (options.servers.includes('product')) {
      const p = await startProduct(zone.text, `${zone.hosts[0]}.${ORIGIN}`, log, signedExported, steered);
      servers.product = p;
      exported = p.exported;
      signedExported = p.signedExported;
    }
    if (options.servers.includes('knot')) {
      const signed = signedExported === null ? [] : [{ domain: SIGNED_ORIGIN, text: signedExported }];
      // The load balancers' names as static records (one A each) for Knot.
      const knotZone = steered === null ? exported : `${exported.trimEnd()}\n${steered.knotRecords}`;
      servers.knot = await startKnotWith(knotZone, 1, signed);
      if (signed.length > 0) await waitFor('Knot signing', () => signedReady(servers.knot!.port));
    }
    if (options.servers.includes('serve')) {
      const zoneFile = path.join(dir, 'bench.zone');
      writeFileSync(zoneFile, exported);
      servers.serve = await startOurs(zoneFile, 1, true);
    }
    // Server on core 0, dnsperf on core 1: on two cores they would otherwise share and swap.
    const cpus = os.availableParallelism();
    if (cpus >= 2) pinned = Object.values(servers).every((s) => pinTree(s.pid, 0));
    const dnsperfCpu = pinned ? 1 : undefined;
    for (const workload of options.workloads) {
      const transport = transportOf(workload);
      const clients = transport === 'tcp' ? options.tcpClients : options.udpClients;
      const base = {
        queryFile:
          workload === 'udp-nx'
            ? nxFile
            : workload === 'steered'
              ? steeredFile
              : workload === 'signed-nx'
                ? signedNxFile
                : isSigned(workload)
                  ? signedFile
                  : queryFile,
        ...(workload === 'steered' ? { binary: true } : {}),
        seconds: options.seconds,
        transport,
        clients,
        ...(workload === 'udp@50k' ? { maxQps: PACED_QPS } : {}),
        // Persistent connections, 16 queries in flight on each (dnsperf's -q counts all clients').
        ...(transport === 'tcp' ? { outstanding: clients * TCP_IN_FLIGHT_PER_CONNECTION } : {}),
        ...(dnsperfCpu !== undefined ? { cpu: dnsperfCpu } : {}),
        ...(isSigned(workload) ? { dnssec: true } : {}),
      };
      const serversOf = isSigned(workload) ? options.servers.filter((x) => x !== 'serve') : options.servers;
      // Unique names repeat nothing: a warm-up would only add to the chain's signatures' first use.
      if (workload === 'signed') {
        for (const server of serversOf) {
          const warm = { seconds: SIGNED_WARMUP_MAX_SECONDS, passes: SIGNED_WARMUP_PASSES };
          await measure({ ...base, ...warm, port: servers[server]!.port }, servers[server]!.pid);
        }
      }
      for (let round = 1; round <= options.rounds; round++) {
        for (const server of serversOf) {
          const s = servers[server]!;
          const m = await measure({ ...base, port: s.port }, s.pid);
          rounds.push({ server, workload, transport, round, ...m });
          log(
            `macro ${server} ${workload} r${round}: ${m.qps.toFixed(0)} q/s, ${m.cpuUsPerQuery.toFixed(2)} µs/q (user ${m.userUsPerQuery.toFixed(2)}), lost ${m.lost}`,
          );
        }
      }
      if (workload !== 'udp' && workload !== 'tcp') continue;
      for (const server of options.servers) {
        const run = { ...base, seconds: options.latencySeconds, port: servers[server]!.port };
        const l = await measureLatency({ ...run, maxQps: options.latencyQps });
        latency.set(`${server}/${workload}`, l);
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  }

  const rows: MacroRow[] = [];
  for (const workload of options.workloads) {
    const of = (server: MacroServer) => rounds.filter((r) => r.server === server && r.workload === workload);
    const pick = (server: MacroServer) => {
      const rs = of(server);
      const qpss = rs.map((r) => r.qps);
      const cpus = rs.map((r) => r.cpuUsPerQuery);
      const qps = median(qpss);
      return {
        qps,
        meanLatencyMs: median(rs.map((r) => r.avgLatencyMs)),
        maxLatencyMs: median(rs.map((r) => r.maxLatencyMs)),
        lost: rs.reduce((a, r) => a + r.lost, 0),
        cpuUsPerQuery: median(cpus),
        userUsPerQuery: median(rs.map((r) => r.userUsPerQuery)),
        qpsSpreadPct: spreadPct(qpss),
        cpuSpreadPct: spreadPct(cpus),
        p50Ms: latency.get(`${server}/${workload}`)?.p50Ms ?? NaN,
        p99Ms: latency.get(`${server}/${workload}`)?.p99Ms ?? NaN,
      };
    };
    const knot = options.servers.includes('knot') ? pick('knot') : null;
    const paired = (server: MacroServer, f: (m: Measurement) => number): number => {
      const mine = of(server);
      const theirs = of('knot');
      return median(mine.map((m, i) => (theirs[i] ? f(m) / f(theirs[i]) : NaN)).filter(Number.isFinite));
    };
    for (const server of options.servers) {
      const x = pick(server);
      rows.push({
        server,
        workload,
        transport: transportOf(workload),
        ...x,
        qpsRatioToKnot: knot ? paired(server, (m) => m.qps) : NaN,
        cpuRatioToKnot: knot ? paired(server, (m) => m.cpuUsPerQuery) : NaN,
        qpsRatioOfMedians: knot ? x.qps / knot.qps : NaN,
        cpuRatioOfMedians: knot ? x.cpuUsPerQuery / knot.cpuUsPerQuery : NaN,
      });
    }
  }
  const records = exported.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('$')).length;
  return {
    options,
    zone: {
      records,
      names: zone.hosts.length + zone.aliases.length + zone.delegations.length,
      queries: queries.split('\n').length - 1,
    },
    rounds,
    rows,
    pinned,
  };
}
