/**
 * One dnsperf measurement against one server process: queries/s, latency, losses and the server's
 * CPU time (utime+stime of the process tree from /proc, so cluster workers count) → µs of server
 * CPU per completed query. Latency percentiles come from a separate paced run with `-v` (dnsperf
 * 2.10 prints one line per query with its latency, no histogram); in the closed-loop throughput
 * run latency only mirrors queue depth (Little's law), so p99 there would say little.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

export type Transport = 'udp' | 'tcp';

export interface DnsperfRun {
  port: number;
  queryFile: string;
  seconds: number;
  transport: Transport;
  clients: number;
  /** dnsperf -Q (paced); undefined = as fast as the server answers (-q 100 outstanding). */
  maxQps?: number;
  /** dnsperf -q: queries outstanding at most, over all clients (default 100). */
  outstanding?: number;
  /** dnsperf -v: one line per query (for latency percentiles). */
  verbose?: boolean;
  /** Run dnsperf on this CPU only (taskset), away from the server's; default anywhere. */
  cpu?: number;
  /** dnsperf -D: the DO bit in every query (DNSSEC answers from a signed zone). */
  dnssecOk?: boolean;
}

export interface Measurement {
  qps: number;
  avgLatencyMs: number;
  /** Slowest completed query of the run (dnsperf's "max" after the average). */
  maxLatencyMs: number;
  sent: number;
  completed: number;
  lost: number;
  cpuSeconds: number;
  cpuUsPerQuery: number;
  /** The user-space part of cpuUsPerQuery (the rest is the kernel's: sockets, wakeups). */
  userUsPerQuery: number;
}

export interface LatencyPercentiles {
  atQps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** utime+stime (s) of pid and all its descendants (Linux proc(5) stat fields 14, 15). */
export function treeCpuSeconds(pid: number): number {
  const t = treeCpuTimes(pid);
  return t.user + t.system;
}

/** utime and stime (s) of pid and all its descendants, apart. */
export function treeCpuTimes(pid: number): { user: number; system: number } {
  let user = 0;
  let system = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      user += Number(fields[11]);
      system += Number(fields[12]);
      for (const t of readdirSync(`/proc/${p}/task`)) {
        const kids = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        if (kids) stack.push(...kids.split(/\s+/).map(Number));
      }
    } catch {
      // The process ended between listing and reading.
    }
  }
  return { user: user / CLK_TCK, system: system / CLK_TCK };
}

/** Process ids of pid and all its descendants. */
function treePids(pid: number): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    out.push(p);
    try {
      for (const t of readdirSync(`/proc/${p}/task`)) {
        const kids = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        if (kids) stack.push(...kids.split(/\s+/).map(Number));
      }
    } catch {
      // Ended meanwhile.
    }
  }
  return out;
}

/**
 * Pins every thread of pid's process tree to `cpu` (taskset -a), so that server and load
 * generator do not share a core and the CPU time per query is the server's own. False when
 * taskset is missing or refuses (then nothing is pinned).
 */
export function pinTree(pid: number, cpu: number): boolean {
  try {
    for (const p of treePids(pid))
      execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(p)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function runDnsperf(run: DnsperfRun): Promise<string> {
  const args = ['-s', '127.0.0.1', '-p', String(run.port), '-d', run.queryFile, '-l', String(run.seconds)];
  args.push('-c', String(run.clients), '-m', run.transport);
  if (run.maxQps !== undefined) args.push('-Q', String(run.maxQps));
  if (run.outstanding !== undefined) args.push('-q', String(run.outstanding));
  if (run.verbose === true) args.push('-v');
  if (run.dnssecOk === true) args.push('-D');
  const [cmd, argv] =
    run.cpu !== undefined ? ['taskset', ['-c', String(run.cpu), 'dnsperf', ...args]] : ['dnsperf', args];
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    p.stdout.on('data', (d: Buffer) => chunks.push(d));
    p.stderr.on('data', (d: Buffer) => chunks.push(d));
    p.on('error', reject);
    p.on('exit', (code) => {
      const out = Buffer.concat(chunks).toString();
      if (code === 0) resolve(out);
      else reject(new Error(`dnsperf exited ${code}:\n${out.slice(-2000)}`));
    });
  });
}

function num(out: string, re: RegExp): number {
  const m = re.exec(out);
  return m ? Number(m[1]) : NaN;
}

export async function measure(run: DnsperfRun, serverPid: number): Promise<Measurement> {
  const cpu0 = treeCpuTimes(serverPid);
  const out = await runDnsperf(run);
  const cpu1 = treeCpuTimes(serverPid);
  const userSeconds = cpu1.user - cpu0.user;
  const cpuSeconds = userSeconds + cpu1.system - cpu0.system;
  const completed = num(out, /Queries completed:\s+(\d+)/);
  return {
    qps: num(out, /Queries per second:\s+([\d.]+)/),
    avgLatencyMs: num(out, /Average Latency \(s\):\s+([\d.]+)/) * 1000,
    maxLatencyMs: num(out, /Average Latency \(s\):.*max ([\d.]+)\)/) * 1000,
    sent: num(out, /Queries sent:\s+(\d+)/),
    completed,
    lost: num(out, /Queries lost:\s+(\d+)/),
    cpuSeconds,
    cpuUsPerQuery: completed > 0 ? (cpuSeconds * 1e6) / completed : NaN,
    userUsPerQuery: completed > 0 ? (userSeconds * 1e6) / completed : NaN,
  };
}

/** Parses `-v` lines ("> NOERROR name TYPE 0.000250") into sorted latencies (s). */
export function latenciesFromVerbose(out: string): Float64Array {
  const xs: number[] = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('> ')) continue;
    const v = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (Number.isFinite(v)) xs.push(v);
  }
  return Float64Array.from(xs).sort();
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function measureLatency(run: DnsperfRun & { maxQps: number }): Promise<LatencyPercentiles> {
  const lat = latenciesFromVerbose(await runDnsperf({ ...run, verbose: true }));
  return {
    atQps: run.maxQps,
    p50Ms: percentile(lat, 50) * 1000,
    p99Ms: percentile(lat, 99) * 1000,
    maxMs: (lat[lat.length - 1] ?? NaN) * 1000,
  };
}
