/**
 * A one-node Ceph cluster with a RADOS Gateway (S3 and admin ops API) for tests: one monitor, one
 * OSD keeping its objects in memory (memstore), one radosgw on a free loopback port, all with
 * `auth none`, their configuration, data, sockets and logs in a fresh temp dir. Needs the Debian
 * packages ceph-mon, ceph-osd, radosgw and ceph-common (.ci/run installs them); without them it
 * throws. `close()` kills the daemons by PID (rgw, then OSD, then monitor) and removes the dir.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePorts } from './free-port.ts';

const execFileP = promisify(execFile);

export const CEPH_BINARIES = [
  'monmaptool',
  'ceph-mon',
  'ceph-osd',
  'radosgw',
  'radosgw-admin',
  'ceph',
] as const;
const BIN_DIRS = ['/usr/bin', '/usr/sbin', '/usr/local/bin'];
/** The region requests are signed for; the gateway checks signatures in whatever region they name. */
export const CEPH_GATEWAY_REGION = 'us-east-1';
const OSD_UP_TIMEOUT_MS = 30_000;
/** The gateway creates its pools before it listens: several seconds on one OSD. */
const RGW_READY_TIMEOUT_MS = 60_000;
const POLL_MS = 250;
const COMMAND_TIMEOUT_MS = 60_000;
/** Starts of a daemon tried before giving up (the OSD now and then loses a race for the monmap). */
const START_ATTEMPTS = 3;
const LOG_TAIL_LINES = 40;

export interface CephGateway {
  /** The S3 endpoint (path-style), also the base of the admin ops API (`/admin/...`). */
  readonly s3Url: string;
  readonly region: string;
  /** Keys of a gateway user with the users, buckets, usage and metadata caps. */
  readonly adminAccessKey: string;
  readonly adminSecretKey: string;
  /** PIDs of the monitor, the OSD and the gateway. */
  readonly pids: { readonly mon: number; readonly osd: number; readonly rgw: number };
  readonly dir: string;
  /** Milliseconds from the call to a gateway answering HTTP with an admin user. */
  readonly startMs: number;
  close(): Promise<void>;
}

interface Daemon {
  readonly name: string;
  readonly child: ChildProcess;
  output(): string;
  exited(): boolean;
}

function findBinary(name: string): string | undefined {
  return BIN_DIRS.map((d) => path.join(d, name)).find((p) => existsSync(p));
}

function binaries(): Record<(typeof CEPH_BINARIES)[number], string> {
  const found = Object.fromEntries(CEPH_BINARIES.map((b) => [b, findBinary(b)]));
  const missing = CEPH_BINARIES.filter((b) => found[b] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `Ceph is not installed (missing ${missing.join(', ')}): apt-get install ceph-mon ceph-osd radosgw ceph-common`,
    );
  }
  return found as Record<(typeof CEPH_BINARIES)[number], string>;
}

function configText(dir: string, fsid: string, monPort: number, rgwPort: number): string {
  return `[global]
fsid = ${fsid}
mon host = v1:127.0.0.1:${monPort}
auth cluster required = none
auth service required = none
auth client required = none
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
pid file = ${dir}/run/$name.pid
mon data = ${dir}/mon/$name
osd data = ${dir}/osd/$name
osd objectstore = memstore
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail crit = 0
osd crush chooseleaf type = 0
# The OSD is placed in the CRUSH map before it starts: at start it would otherwise send monitor
# commands that, before it has the monmap, are refused as "wrong fsid" and stop it.
osd class update on start = false
osd crush update on start = false
ms bind ipv6 = false

[client]
# Without TCP_NODELAY a small answer written in two parts now and then waits 40 ms for the
# client's delayed ACK (Nagle): listings took 50 ms instead of 9 on some connections.
rgw frontends = beast endpoint=127.0.0.1:${rgwPort} tcp_nodelay=1
rgw enable usage log = true
# Usage is written at once instead of every 30 s, quota checks read fresh bucket stats.
rgw usage log tick interval = 1
rgw usage log flush threshold = 1
rgw bucket quota ttl = 0
rgw user quota bucket sync interval = 0
`;
}

function logTail(file: string): string {
  if (!existsSync(file)) return `(no ${path.basename(file)})`;
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-LOG_TAIL_LINES).join('\n');
}

function spawnDaemon(name: string, bin: string, args: string[]): Daemon {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer): void => {
    if (out.length < 100_000) out += d.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let gone = false;
  child.once('exit', () => (gone = true));
  child.once('error', (e) => {
    gone = true;
    out += String(e);
  });
  return { name, child, output: () => out, exited: () => gone || child.exitCode !== null };
}

async function killDaemon(d: Daemon | undefined): Promise<void> {
  if (d === undefined || d.exited()) return;
  const exit = new Promise<void>((r) => d.child.once('exit', () => r()));
  d.child.kill('SIGKILL');
  await exit;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(
  what: string,
  timeoutMs: number,
  ready: () => Promise<boolean>,
  died: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (died()) throw new Error(`${what}: the daemon exited`);
    if (await ready()) return;
    await sleep(POLL_MS);
  }
  throw new Error(`${what}: not ready after ${timeoutMs} ms`);
}

type Daemons = { mon?: Daemon; osd?: Daemon; rgw?: Daemon };

export async function startCephGateway(): Promise<CephGateway> {
  const bin = binaries();
  const started = Date.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'ceph-gateway-'));
  const conf = path.join(dir, 'ceph.conf');
  const daemons: Daemons = {};
  const close = async (): Promise<void> => {
    await killDaemon(daemons.rgw);
    await killDaemon(daemons.osd);
    await killDaemon(daemons.mon);
    await rm(dir, { recursive: true, force: true });
  };
  const cmd = async (b: string, args: string[]): Promise<string> => {
    const { stdout } = await execFileP(b, ['-c', conf, ...args], { timeout: COMMAND_TIMEOUT_MS });
    return stdout;
  };
  const ceph = (args: string[]): Promise<string> => cmd(bin.ceph, ['--connect-timeout', '30', ...args]);
  try {
    await Promise.all(['run', 'log', 'mon', 'osd'].map((d) => mkdir(path.join(dir, d))));
    const [monPort, rgwPort] = (await freePorts(2)) as [number, number];
    const fsid = randomUUID();
    await writeFile(conf, configText(dir, fsid, monPort, rgwPort));
    daemons.mon = await startMon(bin, conf, dir, fsid, monPort);
    daemons.osd = await startOsd(bin, conf, ceph);
    daemons.rgw = await startRgw(bin, conf, `http://127.0.0.1:${rgwPort}`);
    const key = await createAdminUser((args) => cmd(bin['radosgw-admin'], args));
    return {
      s3Url: `http://127.0.0.1:${rgwPort}`,
      region: CEPH_GATEWAY_REGION,
      adminAccessKey: key.access_key,
      adminSecretKey: key.secret_key,
      pids: { mon: daemons.mon.child.pid!, osd: daemons.osd.child.pid!, rgw: daemons.rgw.child.pid! },
      dir,
      startMs: Date.now() - started,
      close,
    };
  } catch (e) {
    const report = startFailure(dir, daemons, e as Error);
    await close();
    throw new Error(report, { cause: e });
  }
}

async function createAdminUser(
  radosgwAdmin: (args: string[]) => Promise<string>,
): Promise<{ access_key: string; secret_key: string }> {
  const created = JSON.parse(
    await radosgwAdmin([
      'user',
      'create',
      '--uid=gateway-admin',
      '--display-name=Gateway admin',
      '--caps=users=*;buckets=*;usage=*;metadata=*',
    ]),
  ) as { keys: { access_key: string; secret_key: string }[] };
  return created.keys[0]!;
}

/** What went wrong, with what each daemon printed and the last lines of each log. */
function startFailure(dir: string, daemons: Daemons, e: Error): string {
  const outputs = Object.values(daemons).map((d) => `--- ${d.name} stdout/stderr\n${d.output().trimEnd()}`);
  const logs = ['mon.a', 'osd.0', 'client.rgw.0'].map(
    (n) => `--- ${n}.log (last lines)\n${logTail(path.join(dir, 'log', `${n}.log`))}`,
  );
  return [`Ceph gateway did not start: ${e.message}`, ...outputs, ...logs].join('\n');
}

async function startMon(
  bin: ReturnType<typeof binaries>,
  conf: string,
  dir: string,
  fsid: string,
  port: number,
): Promise<Daemon> {
  const monmap = path.join(dir, 'monmap');
  const monAddr = `[v1:127.0.0.1:${port}]`;
  await execFileP(bin.monmaptool, ['--create', '--fsid', fsid, '--addv', 'a', monAddr, monmap], {
    timeout: COMMAND_TIMEOUT_MS,
  });
  await execFileP(bin['ceph-mon'], ['-c', conf, '--mkfs', '-i', 'a', '--monmap', monmap], {
    timeout: COMMAND_TIMEOUT_MS,
  });
  return spawnDaemon('ceph-mon', bin['ceph-mon'], ['-c', conf, '-i', 'a', '-f']);
}

async function startOsd(
  bin: ReturnType<typeof binaries>,
  conf: string,
  ceph: (args: string[]) => Promise<string>,
): Promise<Daemon> {
  const uuid = randomUUID();
  const id = (await ceph(['osd', 'new', uuid])).trim();
  await ceph(['osd', 'crush', 'add', `osd.${id}`, '1', 'root=default']);
  await mkdir(path.join(path.dirname(conf), 'osd', `osd.${id}`));
  await execFileP(bin['ceph-osd'], ['-c', conf, '-i', id, '--mkfs', '--osd-uuid', uuid], {
    timeout: COMMAND_TIMEOUT_MS,
  });
  const up = async (): Promise<boolean> => {
    const stat = JSON.parse(await ceph(['osd', 'stat', '--format', 'json'])) as { num_up_osds: number };
    return stat.num_up_osds === 1;
  };
  return startWithRetries('ceph-osd', bin['ceph-osd'], ['-c', conf, '-i', id, '-f'], OSD_UP_TIMEOUT_MS, up);
}

async function startRgw(bin: ReturnType<typeof binaries>, conf: string, url: string): Promise<Daemon> {
  const answers = async (): Promise<boolean> => {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return res.status === 200;
    } catch {
      return false;
    }
  };
  return startWithRetries(
    'radosgw',
    bin.radosgw,
    ['-c', conf, '-n', 'client.rgw.0', '-f'],
    RGW_READY_TIMEOUT_MS,
    answers,
  );
}

/** Starts a daemon until `ready`, again when it exits first (at most START_ATTEMPTS times). */
async function startWithRetries(
  name: string,
  binPath: string,
  args: string[],
  timeoutMs: number,
  ready: () => Promise<boolean>,
): Promise<Daemon> {
  let last: Error | undefined;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const d = spawnDaemon(name, binPath, args);
    try {
      await until(name, timeoutMs, ready, d.exited);
      return d;
    } catch (e) {
      const exitedFirst = d.exited();
      await killDaemon(d);
      last = new Error(
        `${(e as Error).message} (attempt ${attempt}/${START_ATTEMPTS})\n${d.output().trimEnd()}`,
      );
      // A daemon that timed out without exiting would only time out again.
      if (!exitedFirst) break;
    }
  }
  throw last!;
}
