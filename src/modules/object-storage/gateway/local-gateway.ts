/**
 * The single-node gateway `npm start` runs under DATA_DIR/objectstore when `radosgw` is installed
 * and no gateway is configured: one monitor, one OSD (bluestore on a sparse file, `block.img`), one
 * radosgw on a loopback port, `auth none`. The first start creates the cluster and the gateway's
 * admin user and keeps fsid, ports, the OSD's id and the admin keys in `state.json` (mode 0600); a
 * later start reuses them (same monitor port, which the monitor's map names; same gateway port when
 * free) and keeps the data. The daemons are children of this process: stop() kills them by PID, as
 * does this process's exit, and `run/pids.json` lets the next start kill any an earlier one left.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from '../../../kernel/log/logger.ts';
import {
  CephNode,
  cephBinaries,
  findCephBinaries,
  type CephBinaries,
  type CephNodeSpec,
} from './ceph-daemons.ts';

export interface LocalGateway {
  readonly url: string;
  readonly dir: string;
  readonly adminAccessKey: string;
  readonly adminSecretKey: string;
  /** True when this start created the cluster (false: an earlier start's, reused). */
  readonly created: boolean;
  /** Milliseconds from the call to the gateway answering with its admin user. */
  readonly startMs: number;
  stop(): Promise<void>;
}

/** What a later start reuses. */
interface GatewayState {
  readonly fsid: string;
  readonly monPort: number;
  readonly rgwPort: number;
  readonly osdId: string;
  readonly adminAccessKey: string;
  readonly adminSecretKey: string;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
/** The block file's size: sparse, so only what is stored takes disk space. */
const BLOCK_BYTES = 20 * GiB;
/** The smallest Ceph 16 accepts (896 MiB; a smaller value is ignored for the 4 GiB default). */
const OSD_MEMORY_TARGET_BYTES = 896 * MiB;
const BLUESTORE_CACHE_BYTES = 256 * MiB;
const LEFTOVER_EXIT_MS = 5_000;
/** What the first start makes under the dir; removed when a first start did not finish. */
const CREATED_ENTRIES = ['ceph.conf', 'monmap', 'mon', 'osd', 'run', 'block.img'];

export function localGatewayInstalled(): boolean {
  return findCephBinaries() !== null;
}

export async function startLocalGateway(options: { dir: string; log: Logger }): Promise<LocalGateway> {
  const { log } = options;
  // Absolute: the daemons leave the working directory (DATA_DIR defaults to ./data).
  const dir = path.resolve(options.dir);
  const bin = cephBinaries();
  const startedAt = Date.now();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await killLeftovers(dir);
  const saved = readState(dir);
  const { node, state } = saved === null ? await firstStart(bin, dir) : await restart(bin, dir, saved);
  const exitHandler = (): void => node.killNow();
  process.on('exit', exitHandler);
  await writeFile(pidsFile(dir), JSON.stringify(node.pids()));
  return {
    url: node.url,
    dir,
    adminAccessKey: state.adminAccessKey,
    adminSecretKey: state.adminSecretKey,
    created: saved === null,
    startMs: Date.now() - startedAt,
    async stop() {
      process.off('exit', exitHandler);
      await node.stop();
      await rm(pidsFile(dir), { force: true });
      log.info({ dir }, 'object storage: local gateway stopped');
    },
  };
}

function specOf(dir: string, s: Pick<GatewayState, 'fsid' | 'monPort' | 'rgwPort'>): CephNodeSpec {
  return {
    dir,
    fsid: s.fsid,
    monPort: s.monPort,
    rgwPort: s.rgwPort,
    store: {
      kind: 'bluestore',
      blockPath: path.join(dir, 'block.img'),
      blockBytes: BLOCK_BYTES,
      memoryTargetBytes: OSD_MEMORY_TARGET_BYTES,
      cacheBytes: BLUESTORE_CACHE_BYTES,
    },
  };
}

/** Creates the cluster (monitor, OSD, admin user), then keeps its state. */
async function firstStart(bin: CephBinaries, dir: string): Promise<{ node: CephNode; state: GatewayState }> {
  await Promise.all(CREATED_ENTRIES.map((e) => rm(path.join(dir, e), { recursive: true, force: true })));
  const monPort = await freeTcpPort();
  let rgwPort = await freeTcpPort();
  while (rgwPort === monPort) rgwPort = await freeTcpPort();
  const node = new CephNode(bin, specOf(dir, { fsid: randomUUID(), monPort, rgwPort }));
  return startOrReport(node, async () => {
    await node.writeConfig();
    await node.createMon();
    node.startMon();
    const osdId = await node.createOsd();
    await node.startOsd(osdId);
    await node.startRgw();
    const key = await node.createAdminUser();
    const state: GatewayState = {
      fsid: node.spec.fsid,
      monPort,
      rgwPort,
      osdId,
      adminAccessKey: key.accessKey,
      adminSecretKey: key.secretKey,
    };
    await writeState(dir, state);
    return state;
  });
}

/** Starts the daemons of an earlier start's cluster: its monitor port, its gateway port if free. */
async function restart(
  bin: CephBinaries,
  dir: string,
  saved: GatewayState,
): Promise<{ node: CephNode; state: GatewayState }> {
  if (!(await tcpPortFree(saved.monPort))) {
    throw new Error(
      `local object storage gateway: the monitor's port 127.0.0.1:${saved.monPort} (in its map under ${dir}) is taken by another process; free it, or set OBJECT_STORAGE_LOCAL=off`,
    );
  }
  const rgwPort = (await tcpPortFree(saved.rgwPort)) ? saved.rgwPort : await freeTcpPort();
  const state = { ...saved, rgwPort };
  const node = new CephNode(bin, specOf(dir, state));
  return startOrReport(node, async () => {
    await node.writeConfig();
    node.startMon();
    await node.startOsd(state.osdId);
    await node.startRgw();
    if (rgwPort !== saved.rgwPort) await writeState(dir, state);
    return state;
  });
}

/** Runs `steps`; when one fails, stops what started and throws with the daemons' output and logs. */
async function startOrReport(
  node: CephNode,
  steps: () => Promise<GatewayState>,
): Promise<{ node: CephNode; state: GatewayState }> {
  try {
    return { node, state: await steps() };
  } catch (e) {
    const report = node.failure(e as Error);
    await node.stop();
    throw new Error(report, { cause: e });
  }
}

const stateFile = (dir: string): string => path.join(dir, 'state.json');
const pidsFile = (dir: string): string => path.join(dir, 'run', 'pids.json');

function readState(dir: string): GatewayState | null {
  const file = stateFile(dir);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as GatewayState;
}

async function writeState(dir: string, state: GatewayState): Promise<void> {
  await writeFile(stateFile(dir), JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  await chmod(stateFile(dir), 0o600);
}

/**
 * Kills daemons an earlier start left running (its process killed before it could): the PIDs in
 * run/pids.json whose command line still names this dir's ceph.conf.
 */
async function killLeftovers(dir: string): Promise<void> {
  const file = pidsFile(dir);
  if (!existsSync(file)) return;
  const conf = path.join(dir, 'ceph.conf');
  const pids = Object.values(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>);
  const ours = pids.filter((pid) => pid > 0 && commandLine(pid).includes(conf));
  for (const pid of ours) process.kill(pid, 'SIGKILL');
  const deadline = Date.now() + LEFTOVER_EXIT_MS;
  while (ours.some((pid) => commandLine(pid).includes(conf)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await rm(file, { force: true });
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function listen(port: number): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(null));
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

async function tcpPortFree(port: number): Promise<boolean> {
  const server = await listen(port);
  if (server === null) return false;
  await new Promise<void>((r) => server.close(() => r()));
  return true;
}

/** A loopback TCP port the OS says is free now. */
async function freeTcpPort(): Promise<number> {
  const server = await listen(0);
  if (server === null) throw new Error('local object storage gateway: no free loopback port');
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
