/**
 * The game edge beside haproxy (TCP mode, one thread) forwarding to the same upstreams, in
 * alternating rounds: (a) new connections routed a second (handshake → upstream connected →
 * its first byte back at the player), (b) one piped connection's download throughput, (c) status
 * answers from the cache per CPU second of the edge's process, (d) resident memory per idle
 * piped login. The edge runs in its own process (bench/edge-child.ts) so the players' and
 * upstreams' CPU and memory are not counted with it. `npx tsx bench/edge-suite.ts [--quick]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startHaproxyTcp, type HaproxyTcp } from '../src/testing/haproxy-tcp.ts';
import { median, spreadPct } from './bench-stats.ts';
import type { EdgeChildUsage } from './edge-child.ts';
import {
  bulkDownload,
  bulkUpstream,
  closedLoop,
  firstByteUpstream,
  idleUpstream,
  loginBytes,
  openIdle,
  statusBytes,
  statusUpstream,
  twoFrames,
  type Upstream,
} from './edge-load.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface EdgeBenchOptions {
  readonly rounds: number;
  /** Seconds of each closed-loop round. */
  readonly seconds: number;
  /** Players at once in the closed loops. */
  readonly concurrency: number;
  /** Bytes of one bulk download. */
  readonly bulkBytes: number;
  readonly idleConnections: number;
}

/** One figure of ours beside the reference's (haproxy, or a bare node:net server), per round and summed up. */
export interface Compared {
  readonly ours: number[];
  readonly reference: number[];
  readonly oursMedian: number;
  readonly referenceMedian: number;
  readonly oursSpreadPct: number;
  readonly referenceSpreadPct: number;
  /** Median over rounds of ours ÷ the reference of the same round. */
  readonly ratio: number;
  readonly ratioOfMedians: number;
}

export interface EdgeResult {
  readonly options: EdgeBenchOptions;
  /** (a) connections a second; latency medians in ms beside. */
  readonly connect: Compared & {
    oursLatencyMs: number;
    referenceLatencyMs: number;
    /** CPU µs of the proxy's process per connection (haproxy's from /proc). */
    cpuUsPerConnection: Compared;
    failed: number;
  };
  /** (b) MiB/s of one download, and CPU ms of the proxy's process per GiB piped. */
  readonly bulk: Compared & { cpuMsPerGiB: Compared };
  /**
   * (c) status answers per CPU second of the edge's process; the reference here is the floor under any
   * edge in Node: a bare node:net server answering the same exchange with one write. `oursPerSecond`
   * per wall second.
   */
  readonly status: Compared & { oursPerSecond: number[]; failed: number };
  /** (d) resident bytes per idle piped connection, after a full GC (haproxy: VmRSS delta). */
  readonly idle: { connections: number; oursBytes: number; haproxyBytes: number };
}

interface EdgeChild {
  readonly port: number;
  /** CPU and RSS; after a full GC when `collect` (the GC's CPU then counts). */
  usage(collect?: boolean): Promise<EdgeChildUsage>;
  stop(): Promise<void>;
}

async function startEdgeChild(routes: { name: string; port: number }[], bare = false): Promise<EdgeChild> {
  const script = path.join(HERE, 'edge-child.ts');
  const child: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, JSON.stringify(routes), ...(bare ? ['bare'] : [])],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`edge child exited ${code}`)));
  });
  return {
    port,
    usage: (collect = false) =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve(m as EdgeChildUsage));
        child.send(collect ? 'usage after gc' : 'usage');
      }),
    stop: async () => {
      child.send('stop');
      const timer = setTimeout(() => process.kill(child.pid!, 'SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function compared(ours: number[], reference: number[]): Compared {
  return {
    ours,
    reference,
    oursMedian: median(ours),
    referenceMedian: median(reference),
    oursSpreadPct: spreadPct(ours),
    referenceSpreadPct: spreadPct(reference),
    ratio: median(ours.map((o, i) => o / reference[i]!)),
    ratioOfMedians: median(ours) / median(reference),
  };
}

/** Resident bytes of a process by its PID (haproxy's; /proc/<pid>/status VmRSS). */
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? NaN) * 1024;
}

/** CPU seconds (user + system) of a process by its PID, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Alternating rounds of ours and the reference's (the order flips each round). */
async function alternate(
  rounds: number,
  ours: () => Promise<number>,
  theirs: () => Promise<number>,
): Promise<{ ours: number[]; reference: number[] }> {
  const out = { ours: [] as number[], reference: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      out.ours.push(await ours());
      out.reference.push(await theirs());
    } else {
      out.reference.push(await theirs());
      out.ours.push(await ours());
    }
  }
  return out;
}

export async function runEdge(options: EdgeBenchOptions, log: (line: string) => void): Promise<EdgeResult> {
  const upstreams: Upstream[] = [];
  const proxies: HaproxyTcp[] = [];
  let edge: EdgeChild | null = null;
  let bare: EdgeChild | null = null;
  try {
    const first = await firstByteUpstream();
    const bulk = await bulkUpstream(options.bulkBytes);
    const idle = await idleUpstream();
    const status = await statusUpstream();
    upstreams.push(first, bulk, idle, status);
    edge = await startEdgeChild([
      { name: 'connect.bench.test', port: first.port },
      { name: 'bulk.bench.test', port: bulk.port },
      { name: 'idle.bench.test', port: idle.port },
      { name: 'status.bench.test', port: status.port },
    ]);
    const ha = {
      first: await startHaproxyTcp({ target: { host: '127.0.0.1', port: first.port } }),
      bulk: await startHaproxyTcp({ target: { host: '127.0.0.1', port: bulk.port } }),
      idle: await startHaproxyTcp({ target: { host: '127.0.0.1', port: idle.port } }),
    };
    proxies.push(ha.first, ha.bulk, ha.idle);
    const e = edge;

    log(
      `edge (a): connections routed, ${options.rounds} rounds × ${options.seconds} s, ${options.concurrency} players`,
    );
    const latency = { ours: [] as number[], haproxy: [] as number[] };
    const connectCpu = { ours: [] as number[], haproxy: [] as number[] };
    const oursCpu = async (): Promise<number> => (await e.usage()).cpuSeconds;
    let failed = 0;
    const connectRound = async (
      port: number,
      cpu: () => Promise<number>,
      into: { latency: number[]; cpu: number[] },
    ): Promise<number> => {
      const before = await cpu();
      const f = await closedLoop(port, loginBytes('connect.bench.test'), {
        concurrency: options.concurrency,
        seconds: options.seconds,
        done: () => () => true,
        reset: true,
      });
      into.cpu.push((((await cpu()) - before) / f.completed) * 1e6);
      failed += f.failed;
      into.latency.push(f.medianMs);
      await pause(200);
      return f.completed / f.seconds;
    };
    await connectRound(e.port, oursCpu, { latency: [], cpu: [] }); // warm-up (JIT)
    const a = await alternate(
      options.rounds,
      () => connectRound(e.port, oursCpu, { latency: latency.ours, cpu: connectCpu.ours }),
      () =>
        connectRound(ha.first.port, async () => cpuOf(ha.first.pid), {
          latency: latency.haproxy,
          cpu: connectCpu.haproxy,
        }),
    );

    log(`edge (b): one download of ${Math.round(options.bulkBytes / 2 ** 20)} MiB per round`);
    const bulkCpu = { ours: [] as number[], haproxy: [] as number[] };
    const bulkRound = async (port: number, cpu: () => Promise<number>, into: number[]): Promise<number> => {
      const before = await cpu();
      const mibPerSecond = await bulkDownload(port, loginBytes('bulk.bench.test'), options.bulkBytes);
      into.push((((await cpu()) - before) * 1000) / (options.bulkBytes / 2 ** 30));
      return mibPerSecond;
    };
    await bulkRound(e.port, oursCpu, []);
    const b = await alternate(
      options.rounds,
      () => bulkRound(e.port, oursCpu, bulkCpu.ours),
      () => bulkRound(ha.bulk.port, async () => cpuOf(ha.bulk.pid), bulkCpu.haproxy),
    );

    log(
      `edge (c): status answers from the cache, ${options.rounds} rounds × ${options.seconds} s, beside a bare server`,
    );
    bare = await startEdgeChild([], true);
    const floor = bare;
    const perSecond: number[] = [];
    let statusFailed = 0;
    const statusRound = async (child: EdgeChild, wall: number[] | null): Promise<number> => {
      const before = await child.usage();
      const f = await closedLoop(child.port, statusBytes('status.bench.test'), {
        concurrency: options.concurrency,
        seconds: options.seconds,
        done: twoFrames,
        reset: false,
      });
      const after = await child.usage();
      statusFailed += f.failed;
      wall?.push(f.completed / f.seconds);
      await pause(200);
      return f.completed / (after.cpuSeconds - before.cpuSeconds);
    };
    await statusRound(e, null); // warm-up: fills the cache, JIT
    await statusRound(floor, null);
    const c = await alternate(
      options.rounds,
      () => statusRound(e, perSecond),
      () => statusRound(floor, null),
    );

    log(`edge (d): ${options.idleConnections} idle piped logins, through ours and through haproxy`);
    const idleBytes = async (port: number, rss: () => Promise<number>): Promise<number> => {
      await pause(500);
      const before = await rss();
      const sockets = await openIdle(port, loginBytes('idle.bench.test'), options.idleConnections);
      for (let i = 0; i < 100 && idle.open() < options.idleConnections; i++) await pause(50);
      await pause(500);
      const after = await rss();
      for (const s of sockets) s.destroy();
      for (let i = 0; i < 100 && idle.open() > 0; i++) await pause(50);
      return (after - before) / options.idleConnections;
    };
    const oursIdle = await idleBytes(e.port, async () => (await e.usage(true)).rssBytes);
    const haproxyIdle = await idleBytes(ha.idle.port, async () => rssOf(ha.idle.pid));

    return {
      options,
      connect: {
        ...compared(a.ours, a.reference),
        oursLatencyMs: median(latency.ours),
        referenceLatencyMs: median(latency.haproxy),
        cpuUsPerConnection: compared(connectCpu.ours, connectCpu.haproxy),
        failed,
      },
      bulk: { ...compared(b.ours, b.reference), cpuMsPerGiB: compared(bulkCpu.ours, bulkCpu.haproxy) },
      status: { ...compared(c.ours, c.reference), oursPerSecond: perSecond, failed: statusFailed },
      idle: { connections: options.idleConnections, oursBytes: oursIdle, haproxyBytes: haproxyIdle },
    };
  } finally {
    await edge?.stop();
    await bare?.stop();
    for (const p of proxies) await p.stop();
    for (const u of upstreams) await u.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const result = await runEdge(
    {
      rounds: quick ? 2 : 5,
      seconds: quick ? 2 : 4,
      concurrency: 32,
      bulkBytes: (quick ? 64 : 1024) * 2 ** 20,
      idleConnections: quick ? 500 : 2000,
    },
    (line) => process.stderr.write(`${line}\n`),
  );
  console.log(JSON.stringify(result, null, 2));
}
