/**
 * The QEMU engine of the local PVE-shaped server: each VM is a `qemu-system-x86_64` process this
 * engine spawns and owns (TCG, q35, no default devices, no display), driven over QMP on a unix
 * socket, with a qcow2 disk per VM (internal snapshots need qcow2). The guest is the small one of
 * guest-image.ts, booted with `-kernel`/`-initrd`; its serial console is appended to a log file.
 *
 * What each engine call does (PVE runs the same QMP commands, qemu-server's QemuServer.pm):
 * - start: spawn QEMU (with `setpriv --pdeathsig KILL` when there, so a killed product leaves no VM
 *   behind); stop: QMP `quit`; shutdown: `system_powerdown` (the guest's acpid runs `poweroff`) and
 *   the process's exit awaited; reset: `system_reset`; suspend: `stop`; resume: `cont`;
 * - snapshots: running and with vmstate, the QMP jobs `snapshot-save` / `snapshot-load` /
 *   `snapshot-delete` (RAM and device state in the qcow2 disk); running without vmstate,
 *   `blockdev-snapshot-internal-sync`; stopped, `qemu-img snapshot -c/-a/-d`. A rollback with
 *   vmstate of a stopped VM starts it with `-loadvm` (PVE starts it with the saved state too);
 * - backup: a point-in-time copy of the disk into a qcow2 file — running (or paused), the QMP job
 *   `blockdev-backup` with `sync=full` while the guest goes on; stopped, `qemu-img convert` — then
 *   the whole file through `zstd`, `gzip` or `lzop` (as vzdump pipes its archive), so the archive
 *   is a compressed qcow2 image: `qemuArchiveSuffix` names it honestly. Restore reverses it;
 * - rescue: the CD-ROM (`ide2`, an `ide-cd` device) gets its medium with `blockdev-change-medium`
 *   and loses it with `blockdev-open-tray` + `blockdev-remove-medium`; the boot order is the
 *   devices' `bootindex` at start (firmware order; the `-kernel` boot itself always comes first).
 * The guest has no agent: guestAgent answers null. There is no NIC: netin/netout stay 0.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { GuestImage } from './guest-image.js';
import type { EngineCompress, EngineRunState, EngineVmSpec, PveEngine } from './pve-engine.js';
import { QmpClient, withTimeout, type QmpEvent } from './qmp-client.js';

const execFileP = promisify(execFile);

const BIN_DIRS = ['/usr/bin', '/usr/local/bin', '/usr/sbin'];
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
const DISK_NODE = 'drive-scsi0';
const DISK_DEVICE = 'scsi0';
const CDROM_DEVICE = 'ide2';
const CDROM_NODE = 'drive-ide2';
const BACKUP_NODE = 'backup-target';
const QMP_CONNECT_TIMEOUT_MS = 30_000;
const QUIT_TIMEOUT_MS = 10_000;
const JOB_TIMEOUT_MS = 300_000;
const COMMAND_TIMEOUT_MS = 300_000;
const BLOCKSTATS_EVERY_MS = 2_000;
const CLOCK_TICKS_PER_S = 100;
const PAGE_BYTES = 4096;
const STDERR_KEPT = 20_000;

export interface QemuBinaries {
  readonly qemu: string;
  readonly qemuImg: string;
}

function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter((d) => d !== ''), ...BIN_DIRS];
  return dirs.map((d) => path.join(d, name)).find((p) => existsSync(p));
}

/** `qemu-system-x86_64` and `qemu-img`, or null when either is missing. */
export function findQemuBinaries(): QemuBinaries | null {
  const qemu = findBinary('qemu-system-x86_64');
  const qemuImg = findBinary('qemu-img');
  return qemu === undefined || qemuImg === undefined ? null : { qemu, qemuImg };
}

/** What a backup archive of this engine is, by compression: a qcow2 image, compressed whole. */
export function qemuArchiveSuffix(compress: EngineCompress): string {
  return { zstd: 'qcow2.zst', gzip: 'qcow2.gz', lzo: 'qcow2.lzo', none: 'qcow2' }[compress];
}

const COMPRESSORS: Record<Exclude<EngineCompress, 'none'>, string> = {
  zstd: 'zstd',
  gzip: 'gzip',
  lzo: 'lzop',
};

export interface QemuEngineOptions {
  /** Disks under `<dir>/images/<vmid>/`, serial consoles under `<dir>/logs/`. */
  readonly dir: string;
  readonly guest: GuestImage;
  readonly binaries?: QemuBinaries;
  /** Wall clock (ms) for uptimes and CPU use. */
  readonly now?: () => number;
}

interface RunningVm {
  readonly spec: EngineVmSpec;
  readonly child: ChildProcess;
  readonly qmp: QmpClient;
  readonly startedAt: number;
  readonly exited: Promise<void>;
  qmpstatus: string;
  cpuSample: { at: number; ticks: number; fraction: number };
  blockstats: { read: number; write: number; at: number; inFlight: boolean };
}

export class QemuEngine implements PveEngine {
  readonly kind = 'qemu' as const;
  private readonly vms = new Map<number, RunningVm>();
  /** The last spec each VM was started with (a rollback with vmstate of a stopped VM starts it). */
  private readonly lastSpecs = new Map<number, EngineVmSpec>();
  private readonly bin: QemuBinaries;
  private readonly now: () => number;
  /** QMP sockets live in a short temp dir: a unix socket path has at most 107 bytes. */
  private readonly socketDir = mkdtempSync(path.join(os.tmpdir(), 'qemu-qmp-'));
  private jobSeq = 0;

  constructor(private readonly opts: QemuEngineOptions) {
    const found = opts.binaries ?? findQemuBinaries();
    if (found === null) {
      throw new Error(
        'QEMU is not installed (qemu-system-x86_64, qemu-img): apt-get install qemu-system-x86 qemu-utils',
      );
    }
    this.bin = found;
    this.now = opts.now ?? Date.now;
  }

  /** The VM's qcow2 disk. */
  diskPath(vmid: number): string {
    return path.join(this.opts.dir, 'images', String(vmid), `vm-${vmid}-disk-0.qcow2`);
  }

  /** The file the VM's serial console is appended to. */
  consolePath(vmid: number): string {
    return path.join(this.opts.dir, 'logs', `${vmid}.console.log`);
  }

  /** What the serial console printed so far (every start appends). */
  consoleText(vmid: number): string {
    const file = this.consolePath(vmid);
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** Waits until the console, past `fromOffset` characters, matches; answers the match. */
  async waitConsole(
    vmid: number,
    pattern: RegExp,
    timeoutMs: number,
    fromOffset = 0,
  ): Promise<RegExpExecArray> {
    const deadline = this.now() + timeoutMs;
    for (;;) {
      const m = pattern.exec(this.consoleText(vmid).slice(fromOffset));
      if (m !== null) return m;
      if (this.now() > deadline) {
        throw new Error(`console of VM ${vmid}: no ${String(pattern)} within ${timeoutMs} ms`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Runs a QMP command on a running VM (tests read `query-block`, `qom-get` with it). */
  qmpCommand<T = unknown>(vmid: number, command: string, args?: Record<string, unknown>): Promise<T> {
    return this.running(vmid).qmp.execute<T>(command, args);
  }

  /** The process id of a running VM's QEMU, or null. */
  pid(vmid: number): number | null {
    return this.vms.get(vmid)?.child.pid ?? null;
  }

  async createTemplateDisk(vmid: number, sizeGb: number): Promise<void> {
    const disk = this.diskPath(vmid);
    if (existsSync(disk)) return;
    await mkdir(path.dirname(disk), { recursive: true });
    await this.img(['create', '-q', '-f', 'qcow2', `${disk}.tmp`, `${sizeGb}G`]);
    await rename(`${disk}.tmp`, disk);
  }

  async cloneDisk(fromVmid: number, toVmid: number): Promise<void> {
    const from = this.diskPath(fromVmid);
    const to = this.diskPath(toVmid);
    if (!existsSync(from)) throw new Error(`VM ${fromVmid} has no disk`);
    await mkdir(path.dirname(to), { recursive: true });
    // A full clone: the current state only, without the source's snapshots.
    await this.img(['convert', '-q', '-O', 'qcow2', from, `${to}.tmp`]);
    await rename(`${to}.tmp`, to);
  }

  async resizeDisk(vmid: number, sizeGb: number): Promise<void> {
    const bytes = sizeGb * 1024 ** 3;
    const current = await this.virtualSize(vmid);
    if (bytes <= current) return;
    const vm = this.vms.get(vmid);
    if (vm !== undefined) await vm.qmp.execute('block_resize', { 'node-name': DISK_NODE, size: bytes });
    else await this.img(['resize', '-q', this.diskPath(vmid), String(bytes)]);
  }

  async destroyDisk(vmid: number): Promise<void> {
    if (this.vms.has(vmid)) await this.stop(vmid);
    await rm(path.dirname(this.diskPath(vmid)), { recursive: true, force: true });
  }

  start(spec: EngineVmSpec): Promise<void> {
    return this.spawnVm(spec, null);
  }

  async stop(vmid: number): Promise<void> {
    const vm = this.vms.get(vmid);
    if (vm === undefined) return;
    await vm.qmp.execute('quit', undefined, QUIT_TIMEOUT_MS).catch(() => undefined);
    try {
      await withTimeout(vm.exited, QUIT_TIMEOUT_MS, `VM ${vmid} quit`);
    } catch {
      vm.child.kill('SIGKILL');
      await vm.exited;
    }
  }

  async shutdown(vmid: number, timeoutS: number): Promise<void> {
    const vm = this.running(vmid);
    await vm.qmp.execute('system_powerdown');
    try {
      await withTimeout(vm.exited, timeoutS * 1000, `VM ${vmid} shutdown`);
    } catch {
      throw new Error(`VM ${vmid} did not stop within ${timeoutS} s of the ACPI power button`);
    }
  }

  async reset(vmid: number): Promise<void> {
    await this.running(vmid).qmp.execute('system_reset');
  }

  async suspend(vmid: number): Promise<void> {
    const vm = this.running(vmid);
    await vm.qmp.execute('stop');
    vm.qmpstatus = 'paused';
  }

  async resume(vmid: number): Promise<void> {
    const vm = this.running(vmid);
    await vm.qmp.execute('cont');
    vm.qmpstatus = 'running';
  }

  runState(vmid: number): EngineRunState {
    const vm = this.vms.get(vmid);
    if (vm === undefined) {
      return {
        status: 'stopped',
        qmpstatus: 'stopped',
        uptimeS: 0,
        cpu: 0,
        memBytes: 0,
        netin: 0,
        netout: 0,
        diskread: 0,
        diskwrite: 0,
      };
    }
    const now = this.now();
    const proc = readProcStats(vm.child.pid);
    if (proc !== null && now - vm.cpuSample.at >= 500) {
      const seconds = (now - vm.cpuSample.at) / 1000;
      const used = (proc.ticks - vm.cpuSample.ticks) / CLOCK_TICKS_PER_S;
      const fraction = Math.min(vm.spec.cores, Math.max(0, used / seconds));
      vm.cpuSample = { at: now, ticks: proc.ticks, fraction };
    }
    this.refreshBlockstats(vm, now);
    return {
      status: 'running',
      qmpstatus: vm.qmpstatus,
      uptimeS: Math.max(0, Math.floor((now - vm.startedAt) / 1000)),
      cpu: vm.cpuSample.fraction,
      memBytes: Math.min(proc?.rssBytes ?? 0, vm.spec.memoryMb * 1024 * 1024),
      netin: 0,
      netout: 0,
      diskread: vm.blockstats.read,
      diskwrite: vm.blockstats.write,
    };
  }

  async snapshotCreate(vmid: number, name: string, vmstate: boolean): Promise<void> {
    const vm = this.vms.get(vmid);
    if (vm === undefined) {
      await this.img(['snapshot', '-c', name, this.diskPath(vmid)]);
    } else if (vmstate) {
      await this.runJob(vm, 'snapshot-save', { tag: name, vmstate: DISK_NODE, devices: [DISK_NODE] });
    } else {
      await vm.qmp.execute('blockdev-snapshot-internal-sync', { device: DISK_NODE, name });
    }
  }

  async snapshotRollback(vmid: number, name: string, vmstate: boolean): Promise<void> {
    const vm = this.vms.get(vmid);
    if (vmstate) {
      if (vm !== undefined) {
        await this.runJob(vm, 'snapshot-load', { tag: name, vmstate: DISK_NODE, devices: [DISK_NODE] });
        const status = await vm.qmp.execute<{ status: string }>('query-status');
        if (status.status !== 'running') await vm.qmp.execute('cont');
        vm.qmpstatus = 'running';
        return;
      }
      const spec = this.lastSpecs.get(vmid);
      if (spec === undefined)
        throw new Error(`VM ${vmid} was never started here: its saved state cannot be loaded`);
      await this.spawnVm(spec, name);
      return;
    }
    if (vm !== undefined) await this.stop(vmid);
    await this.img(['snapshot', '-a', name, this.diskPath(vmid)]);
  }

  async snapshotDelete(vmid: number, name: string): Promise<void> {
    const vm = this.vms.get(vmid);
    if (vm === undefined) await this.img(['snapshot', '-d', name, this.diskPath(vmid)]);
    else await this.runJob(vm, 'snapshot-delete', { tag: name, devices: [DISK_NODE] });
  }

  async backup(vmid: number, archivePath: string, compress: EngineCompress): Promise<number> {
    const image = `${archivePath}.part-${randomBytes(4).toString('hex')}.qcow2`;
    await mkdir(path.dirname(archivePath), { recursive: true });
    try {
      const vm = this.vms.get(vmid);
      if (vm === undefined) {
        await this.img(['convert', '-q', '-O', 'qcow2', this.diskPath(vmid), image]);
      } else {
        await this.img(['create', '-q', '-f', 'qcow2', image, String(await this.virtualSize(vmid))]);
        await vm.qmp.execute('blockdev-add', {
          driver: 'qcow2',
          'node-name': BACKUP_NODE,
          file: { driver: 'file', filename: image },
        });
        try {
          await this.runJob(vm, 'blockdev-backup', { device: DISK_NODE, target: BACKUP_NODE, sync: 'full' });
        } finally {
          await vm.qmp.execute('blockdev-del', { 'node-name': BACKUP_NODE });
        }
      }
      if (compress === 'none') {
        await rename(image, archivePath);
      } else {
        await pipeTool(COMPRESSORS[compress], ['-c', image], archivePath);
      }
      return (await stat(archivePath)).size;
    } finally {
      await rm(image, { force: true });
    }
  }

  async restore(vmid: number, archivePath: string, compress: EngineCompress): Promise<void> {
    if (this.vms.has(vmid)) throw new Error(`VM ${vmid} is running`);
    const disk = this.diskPath(vmid);
    await mkdir(path.dirname(disk), { recursive: true });
    const image = `${disk}.restore.qcow2`;
    try {
      if (compress === 'none') await this.img(['convert', '-q', '-O', 'qcow2', archivePath, image]);
      else await pipeTool(COMPRESSORS[compress], ['-d', '-c', archivePath], image);
      const info = JSON.parse(await this.img(['info', '--output=json', image])) as { format?: string };
      if (info.format !== 'qcow2') throw new Error(`${path.basename(archivePath)} holds no qcow2 image`);
      // The disk is replaced whole, its snapshots with it (PVE's restore replaces the VM).
      await rename(image, disk);
    } finally {
      await rm(image, { force: true });
    }
  }

  async changeMedium(vmid: number, isoPath: string | null): Promise<void> {
    const vm = this.vms.get(vmid);
    if (vm === undefined) return; // the next start reads the spec's CD-ROM
    if (isoPath !== null) {
      await vm.qmp.execute('blockdev-change-medium', {
        id: CDROM_DEVICE,
        filename: isoPath,
        format: 'raw',
        'read-only-mode': 'read-only',
        force: true,
      });
      return;
    }
    await vm.qmp.execute('blockdev-open-tray', { id: CDROM_DEVICE, force: true });
    await vm.qmp.execute('blockdev-remove-medium', { id: CDROM_DEVICE });
    await vm.qmp.execute('blockdev-close-tray', { id: CDROM_DEVICE });
  }

  archiveSuffix(compress: EngineCompress): string {
    return qemuArchiveSuffix(compress);
  }

  guestAgent(): Promise<null> {
    return Promise.resolve(null);
  }

  async close(): Promise<void> {
    const all = [...this.vms.values()];
    for (const vm of all) vm.child.kill('SIGKILL');
    await Promise.all(all.map((vm) => vm.exited));
    rmSync(this.socketDir, { recursive: true, force: true });
  }

  private running(vmid: number): RunningVm {
    const vm = this.vms.get(vmid);
    if (vm === undefined) throw new Error(`VM ${vmid} is not running`);
    return vm;
  }

  private async spawnVm(spec: EngineVmSpec, loadvm: string | null): Promise<void> {
    const { vmid } = spec;
    if (this.vms.has(vmid)) throw new Error(`VM ${vmid} is already running`);
    const disk = this.diskPath(vmid);
    if (!existsSync(disk)) throw new Error(`VM ${vmid} has no disk`);
    await mkdir(path.dirname(this.consolePath(vmid)), { recursive: true });
    const socketPath = path.join(this.socketDir, `${vmid}.qmp`);
    await rm(socketPath, { force: true });
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    const args = this.qemuArgs(spec, socketPath, loadvm);
    const [command, argv] =
      SETPRIV === undefined
        ? [this.bin.qemu, args]
        : [SETPRIV, ['--pdeathsig', 'KILL', '--', this.bin.qemu, ...args]];
    const child = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      stderr = (stderr + d).slice(-STDERR_KEPT);
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let qmp: QmpClient;
    try {
      const socket = await withTimeout(
        new Promise<net.Socket>((resolve, reject) => {
          server.once('connection', resolve);
          void exited.then(() => reject(new Error(`QEMU exited at start: ${stderr.trim()}`)));
          child.once('error', reject);
        }),
        QMP_CONNECT_TIMEOUT_MS,
        `QEMU of VM ${vmid} connecting to QMP`,
      );
      qmp = await QmpClient.open(socket, QMP_CONNECT_TIMEOUT_MS);
    } catch (err) {
      // QEMU refusing its arguments closes the socket first: wait for its exit to tell why.
      await withTimeout(exited, 2_000, 'exit').catch(() => child.kill('SIGKILL'));
      await exited;
      throw stderr.trim() === '' ? err : new Error(`QEMU of VM ${vmid} did not start: ${stderr.trim()}`);
    } finally {
      server.close();
      await rm(socketPath, { force: true });
    }
    const now = this.now();
    const vm: RunningVm = {
      spec,
      child,
      qmp,
      startedAt: now,
      exited,
      qmpstatus: 'running',
      cpuSample: { at: now, ticks: readProcStats(child.pid)?.ticks ?? 0, fraction: 0 },
      blockstats: { read: 0, write: 0, at: 0, inFlight: false },
    };
    qmp.onEvent((e: QmpEvent) => {
      if (e.event === 'STOP') vm.qmpstatus = 'paused';
      else if (e.event === 'RESUME') vm.qmpstatus = 'running';
      else if (e.event === 'SHUTDOWN') vm.qmpstatus = 'shutdown';
    });
    this.vms.set(vmid, vm);
    this.lastSpecs.set(vmid, spec);
    void exited.then(() => {
      qmp.close();
      if (this.vms.get(vmid) === vm) this.vms.delete(vmid);
    });
    const status = await qmp.execute<{ status: string }>('query-status').catch(() => null);
    if (status !== null) vm.qmpstatus = status.status;
  }

  private qemuArgs(spec: EngineVmSpec, socketPath: string, loadvm: string | null): string[] {
    const bootindex = (device: string): string => {
      const i = spec.bootOrder.indexOf(device);
      // PVE numbers from 100 (qemu-server); 0 is the -kernel option ROM's.
      return i < 0 ? '' : `,bootindex=${100 + i}`;
    };
    const disk = this.diskPath(spec.vmid);
    const args = [
      '-name',
      `vm${spec.vmid}`,
      '-accel',
      'tcg',
      '-machine',
      'q35',
      '-m',
      String(spec.memoryMb),
      '-smp',
      String(spec.cores),
      '-nodefaults',
      '-no-user-config',
      '-display',
      'none',
      '-kernel',
      this.opts.guest.kernel,
      '-initrd',
      this.opts.guest.initrd,
      '-append',
      'console=ttyS0 panic=-1 quiet',
      '-chardev',
      `file,id=serial0,path=${this.consolePath(spec.vmid)},append=on`,
      '-serial',
      'chardev:serial0',
      '-chardev',
      `socket,id=qmp,path=${socketPath}`,
      '-mon',
      'chardev=qmp,mode=control',
      '-blockdev',
      `driver=file,filename=${disk},node-name=${DISK_NODE}-file`,
      '-blockdev',
      `driver=qcow2,file=${DISK_NODE}-file,node-name=${DISK_NODE}`,
      '-device',
      `virtio-blk-pci,drive=${DISK_NODE},id=${DISK_DEVICE}${bootindex(DISK_DEVICE)}`,
    ];
    if (spec.cdromPath !== null) {
      args.push(
        '-blockdev',
        `driver=file,filename=${spec.cdromPath},node-name=${CDROM_NODE}-file,read-only=on`,
        '-blockdev',
        `driver=raw,file=${CDROM_NODE}-file,node-name=${CDROM_NODE},read-only=on`,
        '-device',
        `ide-cd,bus=ide.2,drive=${CDROM_NODE},id=${CDROM_DEVICE}${bootindex(CDROM_DEVICE)}`,
      );
    } else {
      args.push('-device', `ide-cd,bus=ide.2,id=${CDROM_DEVICE}${bootindex(CDROM_DEVICE)}`);
    }
    if (loadvm !== null) args.push('-loadvm', loadvm);
    return args;
  }

  /** Runs a QMP job to its end: waits for `concluded`, reads its error, dismisses it. */
  private async runJob(vm: RunningVm, command: string, args: Record<string, unknown>): Promise<void> {
    const jobId = `${command}-${++this.jobSeq}`;
    const concluded = vm.qmp.waitEvent(
      (e) => e.event === 'JOB_STATUS_CHANGE' && e.data.id === jobId && e.data.status === 'concluded',
      JOB_TIMEOUT_MS,
      `${command} job`,
    );
    const started = vm.qmp.execute(command, { 'job-id': jobId, ...args, ...autoDismissOff(command) });
    await Promise.all([started, concluded]);
    const jobs = await vm.qmp.execute<{ id: string; error?: string }[]>('query-jobs');
    await vm.qmp.execute('job-dismiss', { id: jobId });
    const error = jobs.find((j) => j.id === jobId)?.error;
    if (error !== undefined) throw new Error(`${command}: ${error}`);
  }

  private refreshBlockstats(vm: RunningVm, now: number): void {
    if (vm.blockstats.inFlight || now - vm.blockstats.at < BLOCKSTATS_EVERY_MS) return;
    vm.blockstats.inFlight = true;
    void vm.qmp
      .execute<{ 'node-name'?: string; qdev?: string; stats: { rd_bytes: number; wr_bytes: number } }[]>(
        'query-blockstats',
      )
      .then((all) => {
        const disk = all.find((b) => b.qdev?.endsWith(DISK_DEVICE) === true || b['node-name'] === DISK_NODE);
        if (disk !== undefined) {
          vm.blockstats.read = disk.stats.rd_bytes;
          vm.blockstats.write = disk.stats.wr_bytes;
        }
      })
      .catch(() => undefined)
      .finally(() => {
        vm.blockstats.at = now;
        vm.blockstats.inFlight = false;
      });
  }

  private async virtualSize(vmid: number): Promise<number> {
    const vm = this.vms.get(vmid);
    if (vm !== undefined) {
      const nodes = await vm.qmp.execute<{ 'node-name': string; image: { 'virtual-size': number } }[]>(
        'query-named-block-nodes',
        { flat: true },
      );
      const node = nodes.find((n) => n['node-name'] === DISK_NODE);
      if (node !== undefined) return node.image['virtual-size'];
    }
    const info = JSON.parse(await this.img(['info', '-U', '--output=json', this.diskPath(vmid)])) as {
      'virtual-size': number;
    };
    return info['virtual-size'];
  }

  private async img(args: string[]): Promise<string> {
    try {
      const { stdout } = await execFileP(this.bin.qemuImg, args, {
        timeout: COMMAND_TIMEOUT_MS,
        maxBuffer: 16 << 20,
      });
      return stdout;
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`qemu-img ${args[0]}: ${(e.stderr ?? e.message).trim()}`);
    }
  }
}

/** `blockdev-backup` dismisses itself by default; the engine reads its outcome first. */
function autoDismissOff(command: string): Record<string, unknown> {
  return command === 'blockdev-backup' ? { 'auto-dismiss': false } : {};
}

/** CPU ticks (user + system) and resident bytes of a process, from /proc. */
function readProcStats(pid: number | undefined): { ticks: number; rssBytes: number } | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const statm = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    return { ticks: Number(fields[11]) + Number(fields[12]), rssBytes: Number(statm[1]) * PAGE_BYTES };
  } catch {
    return null;
  }
}

/** Runs a compressor with its output to a file; rejects with its stderr when it fails. */
async function pipeTool(tool: string, args: string[], outFile: string): Promise<void> {
  const child = spawn(tool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    stderr = (stderr + d).slice(-STDERR_KEPT);
  });
  const exit = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  try {
    await pipeline(child.stdout, createWriteStream(outFile));
    const code = await exit;
    if (code !== 0) throw new Error(`${tool} exited with ${code}: ${stderr.trim()}`);
  } catch (err) {
    await rm(outFile, { force: true });
    const e = err as NodeJS.ErrnoException;
    throw e.code === 'ENOENT' ? new Error(`${tool} is not installed`) : err;
  }
}
