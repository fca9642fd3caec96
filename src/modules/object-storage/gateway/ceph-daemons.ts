/**
 * The daemons of a one-node Ceph cluster with a RADOS Gateway: one monitor, one OSD, one radosgw,
 * all with `auth none`, their configuration, data, sockets and logs under one dir. Used by the
 * local gateway `npm start` runs (bluestore on a sparse file, kept across starts) and by the tests'
 * gateway (memstore, a fresh temp dir). Daemons run in the foreground as children of this process,
 * with a parent-death signal when `setpriv` is there, and are stopped by PID (SIGKILL: with
 * `auth none` nothing needs a clean shutdown), the gateway first, then the OSD, then the monitor.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export const CEPH_BINARIES = [
  'monmaptool',
  'ceph-mon',
  'ceph-osd',
  'radosgw',
  'radosgw-admin',
  'ceph',
] as const;
export type CephBinaries = Record<(typeof CEPH_BINARIES)[number], string>;
const BIN_DIRS = ['/usr/bin', '/usr/sbin', '/usr/local/bin'];
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
const OSD_UP_TIMEOUT_MS = 30_000;
/** The gateway creates its pools before it listens: several seconds on one OSD. */
const RGW_READY_TIMEOUT_MS = 60_000;
const POLL_MS = 250;
const COMMAND_TIMEOUT_MS = 60_000;
/** Tries of a monitor command the monitor refuses for a moment. */
const CEPH_COMMAND_ATTEMPTS = 4;
/** Starts of a daemon tried before giving up (the OSD now and then loses a race for the monmap). */
const START_ATTEMPTS = 3;
const LOG_TAIL_LINES = 40;
const OUTPUT_KEPT = 100_000;
export const ADMIN_UID = 'gateway-admin';

/** Where the OSD keeps objects: in memory (tests), or bluestore on a block file outside its dir. */
export type OsdStore =
  | { readonly kind: 'memstore' }
  | {
      readonly kind: 'bluestore';
      readonly blockPath: string;
      readonly blockBytes: number;
      /** The OSD's memory target and its bluestore cache, in bytes. */
      readonly memoryTargetBytes: number;
      readonly cacheBytes: number;
    };

export interface CephNodeSpec {
  readonly dir: string;
  readonly fsid: string;
  readonly monPort: number;
  readonly rgwPort: number;
  readonly store: OsdStore;
}

export interface AdminKey {
  readonly accessKey: string;
  readonly secretKey: string;
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

/** The Ceph binaries' paths, or null when one is missing. */
export function findCephBinaries(): CephBinaries | null {
  const found = Object.fromEntries(CEPH_BINARIES.map((b) => [b, findBinary(b)]));
  return CEPH_BINARIES.every((b) => found[b] !== undefined) ? (found as CephBinaries) : null;
}

export function cephBinaries(): CephBinaries {
  const found = findCephBinaries();
  if (found === null) {
    const missing = CEPH_BINARIES.filter((b) => findBinary(b) === undefined);
    throw new Error(
      `Ceph is not installed (missing ${missing.join(', ')}): apt-get install ceph-mon ceph-osd radosgw ceph-common`,
    );
  }
  return found;
}

function storeConfig(store: OsdStore): string {
  if (store.kind === 'memstore') return 'osd objectstore = memstore\n';
  return `osd objectstore = bluestore
# The block device is a sparse file: it takes the space objects take, not its size.
bluestore block path = ${store.blockPath}
bluestore block size = ${store.blockBytes}
bluestore block create = true
bluestore block db create = false
bluestore block wal create = false
osd memory target = ${store.memoryTargetBytes}
bluestore cache autotune = false
bluestore cache size = ${store.cacheBytes}
`;
}

export function cephConfigText(spec: CephNodeSpec): string {
  const { dir, fsid, monPort, rgwPort } = spec;
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
${storeConfig(spec.store)}osd pool default size = 1
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
# peer's delayed ACK (Nagle): listings took 50 ms instead of 9.
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

/** A daemon in the foreground; with setpriv it is killed when this process dies, even by SIGKILL. */
function spawnDaemon(name: string, bin: string, args: string[]): Daemon {
  const [command, argv] =
    SETPRIV === undefined ? [bin, args] : [SETPRIV, ['--pdeathsig', 'KILL', '--', bin, ...args]];
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer): void => {
    if (out.length < OUTPUT_KEPT) out += d.toString();
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

/**
 * One node's daemons over `spec.dir`: creating the monitor and the OSD (once), starting the three
 * daemons (every time), the gateway's admin user (once), and stopping them by PID.
 */
export class CephNode {
  readonly conf: string;
  private mon: Daemon | undefined;
  private osd: Daemon | undefined;
  private rgw: Daemon | undefined;

  constructor(
    private readonly bin: CephBinaries,
    readonly spec: CephNodeSpec,
  ) {
    this.conf = path.join(spec.dir, 'ceph.conf');
  }

  get url(): string {
    return `http://127.0.0.1:${this.spec.rgwPort}`;
  }

  /** The daemons' PIDs (0 for one not running). */
  pids(): { mon: number; osd: number; rgw: number } {
    const pid = (d: Daemon | undefined): number => (d === undefined || d.exited() ? 0 : d.child.pid!);
    return { mon: pid(this.mon), osd: pid(this.osd), rgw: pid(this.rgw) };
  }

  /** Writes ceph.conf and makes the dirs the daemons expect. */
  async writeConfig(): Promise<void> {
    const dir = this.spec.dir;
    await Promise.all(['run', 'log', 'mon', 'osd'].map((d) => mkdir(path.join(dir, d), { recursive: true })));
    await writeFile(this.conf, cephConfigText(this.spec));
  }

  /** The monitor's store, with a monmap naming it at 127.0.0.1:monPort. */
  async createMon(): Promise<void> {
    const monmap = path.join(this.spec.dir, 'monmap');
    const monAddr = `[v1:127.0.0.1:${this.spec.monPort}]`;
    await this.run(this.bin.monmaptool, [
      '--create',
      '--fsid',
      this.spec.fsid,
      '--addv',
      'a',
      monAddr,
      monmap,
    ]);
    await this.run(this.bin['ceph-mon'], ['-c', this.conf, '--mkfs', '-i', 'a', '--monmap', monmap]);
  }

  startMon(): void {
    this.mon = spawnDaemon('ceph-mon', this.bin['ceph-mon'], ['-c', this.conf, '-i', 'a', '-f']);
  }

  /** Registers an OSD with the running monitor, places it in the CRUSH map, makes its store. */
  async createOsd(): Promise<string> {
    const uuid = randomUUID();
    const id = (await this.ceph(['osd', 'new', uuid])).trim();
    await this.ceph(['osd', 'crush', 'add', `osd.${id}`, '1', 'root=default']);
    await mkdir(path.join(this.spec.dir, 'osd', `osd.${id}`), { recursive: true });
    await this.run(this.bin['ceph-osd'], ['-c', this.conf, '-i', id, '--mkfs', '--osd-uuid', uuid]);
    return id;
  }

  async startOsd(id: string): Promise<void> {
    const up = async (): Promise<boolean> => {
      // A command the monitor still refuses after its attempts: not ready yet, asked at the next poll.
      try {
        const stat = JSON.parse(await this.ceph(['osd', 'stat', '--format', 'json'])) as {
          num_up_osds: number;
        };
        return stat.num_up_osds === 1;
      } catch {
        return false;
      }
    };
    const args = ['-c', this.conf, '-i', id, '-f'];
    this.osd = await startWithRetries('ceph-osd', this.bin['ceph-osd'], args, OSD_UP_TIMEOUT_MS, up);
  }

  async startRgw(): Promise<void> {
    const url = this.url;
    const answers = async (): Promise<boolean> => {
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        return res.status === 200;
      } catch {
        return false;
      }
    };
    const args = ['-c', this.conf, '-n', 'client.rgw.0', '-f'];
    this.rgw = await startWithRetries('radosgw', this.bin.radosgw, args, RGW_READY_TIMEOUT_MS, answers);
  }

  /** A gateway user with the users, buckets, usage and metadata caps (the admin ops API's). */
  async createAdminUser(): Promise<AdminKey> {
    const created = JSON.parse(
      await this.run(this.bin['radosgw-admin'], [
        '-c',
        this.conf,
        'user',
        'create',
        `--uid=${ADMIN_UID}`,
        '--display-name=Gateway admin',
        '--caps=users=*;buckets=*;usage=*;metadata=*',
      ]),
    ) as { keys: { access_key: string; secret_key: string }[] };
    const key = created.keys[0]!;
    return { accessKey: key.access_key, secretKey: key.secret_key };
  }

  /** Kills the gateway, then the OSD, then the monitor, and waits for each to exit. */
  async stop(): Promise<void> {
    await killDaemon(this.rgw);
    await killDaemon(this.osd);
    await killDaemon(this.mon);
  }

  /** The same at once, without waiting (for a process 'exit' handler). */
  killNow(): void {
    for (const d of [this.rgw, this.osd, this.mon]) {
      if (d !== undefined && !d.exited()) d.child.kill('SIGKILL');
    }
  }

  /** What went wrong, with what each daemon printed and the last lines of each log. */
  failure(e: Error): string {
    const daemons = [this.mon, this.osd, this.rgw].filter((d) => d !== undefined);
    const outputs = daemons.map((d) => `--- ${d.name} stdout/stderr\n${d.output().trimEnd()}`);
    const logs = ['mon.a', 'osd.0', 'client.rgw.0'].map(
      (n) => `--- ${n}.log (last lines)\n${logTail(path.join(this.spec.dir, 'log', `${n}.log`))}`,
    );
    return [`Ceph gateway did not start: ${e.message}`, ...outputs, ...logs].join('\n');
  }

  private async run(bin: string, args: string[]): Promise<string> {
    const { stdout } = await execFileP(bin, args, { timeout: COMMAND_TIMEOUT_MS });
    return stdout;
  }

  /**
   * A monitor command, tried again when the monitor refuses it for a moment (seen under load:
   * `EPERM: problem getting command descriptions from mon`); the commands sent are idempotent.
   */
  private async ceph(args: string[]): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run(this.bin.ceph, ['-c', this.conf, '--connect-timeout', '30', ...args]);
      } catch (e) {
        if (attempt >= CEPH_COMMAND_ATTEMPTS) throw e;
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  }
}
