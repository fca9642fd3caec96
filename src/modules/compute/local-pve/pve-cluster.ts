/**
 * The state of the local PVE server: nodes, VM configs (as PVE keeps them in
 * `/etc/pve/nodes/<node>/qemu-server/<vmid>.conf`), config locks, snapshots, storage contents (ISO
 * images, vzdump archives that outlive their VM, as on PVE) and the operations that change them,
 * each run as a task that calls the engine. The engine is told only what a hypervisor needs: a spec
 * derived from the config (cores, memory, boot order, the CD-ROM's file, cloud-init) and file paths
 * under the data directory (`<dataDir>/iso/`, `<dataDir>/dump/`).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { statSync, readdirSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../../kernel/clock.ts';
import type { EngineCompress, EngineVmSpec, PveEngine } from './pve-engine.ts';
import { PveTasks, type TaskLog } from './pve-tasks.ts';
import { parsePropertyString, pveFail } from './pve-wire.ts';

export interface LocalPveTemplate {
  readonly vmid: number;
  readonly name: string;
  /** The node it lives on (default: the first). */
  readonly node?: string;
  readonly diskGb?: number;
  readonly cores?: number;
  readonly memoryMb?: number;
}

export type LocalPveIso = string | { readonly name: string; readonly size: number };

export interface VmRecord {
  readonly vmid: number;
  readonly node: string;
  config: Record<string, string>;
  lock: string | null;
  readonly snapshots: Map<string, SnapshotRecord>;
  /** The snapshot the current state descends from. */
  parent: string | null;
}

export interface SnapshotRecord {
  readonly name: string;
  readonly description: string;
  readonly snaptime: number;
  readonly vmstate: boolean;
  parent: string | null;
  readonly config: Record<string, string>;
}

export interface BackupRecord {
  readonly node: string;
  readonly storage: string;
  readonly volid: string;
  readonly vmid: number;
  readonly ctime: number;
  readonly size: number;
  readonly notes: string | null;
  readonly format: string;
  readonly compress: EngineCompress;
  readonly path: string;
  readonly config: Record<string, string>;
}

export interface PersistedState {
  readonly vms: readonly {
    readonly vmid: number;
    readonly node: string;
    readonly config: Record<string, string>;
    readonly parent: string | null;
    readonly snapshots: readonly SnapshotRecord[];
  }[];
  readonly backups: readonly BackupRecord[];
}

/** Storages of every node: `local` (a directory: ISO images, backups) and `local-lvm` (disks). */
export const STORAGES: Readonly<Record<string, { type: string; content: readonly string[] }>> = {
  local: { type: 'dir', content: ['iso', 'backup', 'vztmpl'] },
  'local-lvm': { type: 'lvmthin', content: ['images', 'rootdir'] },
};

const GIB = 1024 ** 3;

export function sizeToBytes(size: string): number {
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)$/.exec(size);
  if (!m) return 0;
  const mult = { '': 1, K: 1024, M: 1024 ** 2, G: GIB, T: 1024 ** 4 }[m[2] as '' | 'K' | 'M' | 'G' | 'T'];
  return Math.round(Number(m[1]) * mult);
}

export function bytesToSize(bytes: number): string {
  if (bytes % GIB === 0) return `${bytes / GIB}G`;
  if (bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2}M`;
  return `${Math.ceil(bytes / 1024)}K`;
}

/** `memory` is `<MiB>` or (PVE 8.1+) `current=<MiB>[,...]`. */
export function memoryMb(config: Readonly<Record<string, string>>): number {
  const m = config.memory;
  if (m === undefined) return 512;
  return Number(parsePropertyString(m, 'current').current ?? 512);
}

/** The boot order (`boot: order=scsi0;ide2;net0`); PVE's default is the disks, then the network. */
export function bootOrder(config: Readonly<Record<string, string>>): string[] {
  const order = config.boot ? parsePropertyString(config.boot, 'legacy').order : undefined;
  if (order) return order.split(';').filter((d) => d !== '');
  return ['scsi0', 'ide2', 'net0'].filter((d) => config[d] !== undefined);
}

/** The disk a drive string names (`local-lvm:vm-101-disk-0,size=10G` → its volid and size). */
export function driveOf(value: string): { volid: string; size: number; media: string | null } {
  const p = parsePropertyString(value, 'file');
  return { volid: p.file ?? '', size: p.size ? sizeToBytes(p.size) : 0, media: p.media ?? null };
}

const MAC_OUI = 'BC:24:11';

export interface ClusterOptions {
  readonly engine: PveEngine;
  readonly dataDir: string;
  readonly nodes: readonly string[];
  readonly templates: readonly LocalPveTemplate[];
  readonly isos: readonly LocalPveIso[];
  readonly clock: Clock;
  readonly clusterName: string;
}

export class PveCluster {
  readonly vms = new Map<number, VmRecord>();
  readonly backups: BackupRecord[] = [];
  readonly tasks: PveTasks;
  readonly engine: PveEngine;
  readonly nodes: readonly string[];
  readonly dataDir: string;
  readonly clock: Clock;
  readonly clusterName: string;
  private readonly isoList: readonly LocalPveIso[];

  constructor(options: ClusterOptions) {
    this.engine = options.engine;
    this.nodes = options.nodes;
    this.dataDir = options.dataDir;
    this.clock = options.clock;
    this.clusterName = options.clusterName;
    this.isoList = options.isos;
    this.tasks = new PveTasks(options.clock);
    for (const dir of ['iso', 'dump', 'images']) mkdirSync(path.join(this.dataDir, dir), { recursive: true });
  }

  nowS(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  async addTemplate(t: LocalPveTemplate): Promise<void> {
    const node = t.node ?? this.nodes[0]!;
    const diskGb = t.diskGb ?? 2;
    await this.engine.createTemplateDisk(t.vmid, diskGb);
    this.vms.set(t.vmid, {
      vmid: t.vmid,
      node,
      lock: null,
      snapshots: new Map(),
      parent: null,
      config: {
        name: t.name,
        agent: '1',
        boot: 'order=scsi0;ide2;net0',
        cores: String(t.cores ?? 1),
        cpu: 'x86-64-v2-AES',
        ide0: `local-lvm:vm-${t.vmid}-cloudinit,media=cdrom`,
        ide2: 'none,media=cdrom',
        memory: String(t.memoryMb ?? 512),
        meta: `creation-qemu=8.1.5,ctime=${this.nowS()}`,
        net0: `virtio=${this.mac(t.vmid)},bridge=vmbr0,firewall=1`,
        ostype: 'l26',
        scsi0: `local-lvm:base-${t.vmid}-disk-0,size=${diskGb}G`,
        scsihw: 'virtio-scsi-single',
        serial0: 'socket',
        smbios1: `uuid=${this.uuid(t.vmid)}`,
        sockets: '1',
        template: '1',
        vga: 'serial0',
        vmgenid: this.uuid(t.vmid + 1),
      },
    });
  }

  private mac(vmid: number): string {
    const b = [(vmid >> 16) & 255, (vmid >> 8) & 255, vmid & 255];
    return `${MAC_OUI}:${b.map((x) => x.toString(16).toUpperCase().padStart(2, '0')).join(':')}`;
  }

  private uuid(seed: number): string {
    const h = createHash('sha1').update(`vm-${seed}-${this.clusterName}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /**
   * Makes `count` VMs cloned from a template at once, without tasks (for benchmarks and tests that
   * need many VMs): vmids from `firstVmid`, names `<prefix><vmid>`, started when `running`.
   */
  async seedVms(options: {
    readonly templateVmid: number;
    readonly count: number;
    readonly firstVmid?: number;
    readonly namePrefix?: string;
    readonly running?: boolean;
  }): Promise<number[]> {
    const template = this.vms.get(options.templateVmid);
    if (!template) throw new Error(`no template ${options.templateVmid}`);
    const ids: number[] = [];
    let vmid = options.firstVmid ?? 100;
    while (ids.length < options.count) {
      if (!this.vms.has(vmid)) {
        this.clone(template, vmid, `${options.namePrefix ?? 'vm-'}${vmid}`, null, 'root@pam');
        ids.push(vmid);
      }
      vmid += 1;
    }
    await this.tasks.settle();
    if (options.running) for (const id of ids) await this.engine.start(this.spec(this.vms.get(id)!));
    return ids;
  }

  /** The cluster's state as JSON (VM configs, snapshots, backups), for a state file. */
  snapshotState(): PersistedState {
    return {
      vms: [...this.vms.values()].map((vm) => ({
        vmid: vm.vmid,
        node: vm.node,
        config: vm.config,
        parent: vm.parent,
        snapshots: [...vm.snapshots.values()],
      })),
      backups: this.backups,
    };
  }

  /** Takes back a state saved by snapshotState (locks are not kept: no task outlives the server). */
  restoreState(state: PersistedState): void {
    for (const v of state.vms) {
      if (!this.nodes.includes(v.node)) continue;
      this.vms.set(v.vmid, {
        vmid: v.vmid,
        node: v.node,
        config: v.config,
        lock: null,
        parent: v.parent,
        snapshots: new Map(v.snapshots.map((s) => [s.name, s])),
      });
    }
    this.backups.push(...state.backups.filter((b) => this.nodes.includes(b.node)));
  }

  // --- lookups -----------------------------------------------------------------------------------

  checkNode(node: string): void {
    if (!this.nodes.includes(node))
      throw pveFail(
        `hostname lookup '${node}' failed - failed to get address info for: ${node}: Name or service not known`,
      );
  }

  vm(node: string, vmid: number): VmRecord {
    this.checkNode(node);
    const vm = this.vms.get(vmid);
    if (!vm || vm.node !== node)
      throw pveFail(`Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist`);
    return vm;
  }

  checkLock(vm: VmRecord): void {
    if (vm.lock !== null) throw pveFail(`VM is locked (${vm.lock})`);
  }

  running(vm: VmRecord): boolean {
    return this.engine.runState(vm.vmid).status === 'running';
  }

  digest(config: Readonly<Record<string, string>>): string {
    const text = Object.keys(config)
      .sort()
      .map((k) => `${k}: ${config[k]}`)
      .join('\n');
    return createHash('sha1').update(text).digest('hex');
  }

  nextId(): number {
    let id = 100;
    while (this.vms.has(id)) id += 1;
    return id;
  }

  storage(name: string): { type: string; content: readonly string[] } {
    const s = STORAGES[name];
    if (!s) throw pveFail(`storage '${name}' does not exist`);
    return s;
  }

  /** The ISO images of a node's `local` storage: the configured ones and the files in `<dataDir>/iso/`. */
  isos(): { volid: string; size: number; ctime: number }[] {
    const out = new Map<string, { volid: string; size: number; ctime: number }>();
    for (const iso of this.isoList) {
      const name = typeof iso === 'string' ? iso : iso.name;
      const file = path.join(this.dataDir, 'iso', name);
      let size = typeof iso === 'string' ? 0 : iso.size;
      let ctime = this.nowS();
      try {
        const st = statSync(file);
        size = st.size;
        ctime = Math.floor(st.mtimeMs / 1000);
      } catch {
        // listed by configuration only
      }
      out.set(name, { volid: `local:iso/${name}`, size, ctime });
    }
    try {
      for (const name of readdirSync(path.join(this.dataDir, 'iso'))) {
        if (!name.endsWith('.iso') || out.has(name)) continue;
        const st = statSync(path.join(this.dataDir, 'iso', name));
        out.set(name, { volid: `local:iso/${name}`, size: st.size, ctime: Math.floor(st.mtimeMs / 1000) });
      }
    } catch {
      // no directory
    }
    return [...out.values()].sort((a, b) => a.volid.localeCompare(b.volid));
  }

  /** The file of an ISO volid (`local:iso/x.iso`), or a 500 as PVE answers for a missing volume. */
  isoPath(volid: string): string {
    const m = /^([a-z][a-z0-9\-_.]*[a-z0-9]):iso\/([^/]+\.iso)$/i.exec(volid);
    if (!m || m[1] !== 'local' || !this.isos().some((i) => i.volid === volid))
      throw pveFail(`volume '${volid}' does not exist`);
    return path.join(this.dataDir, 'iso', m[2]!);
  }

  /** What the engine needs to boot the VM, read from its config. */
  spec(vm: VmRecord): EngineVmSpec {
    const c = vm.config;
    const ide2 = c.ide2 ? driveOf(c.ide2).volid : 'none';
    let sshKeys: string[] = [];
    if (c.sshkeys) {
      try {
        sshKeys = decodeURIComponent(c.sshkeys)
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '' && !l.startsWith('#'));
      } catch {
        sshKeys = [];
      }
    }
    return {
      vmid: vm.vmid,
      cores: Number(c.cores ?? 1) * Number(c.sockets ?? 1),
      memoryMb: memoryMb(c),
      bootOrder: bootOrder(c),
      cdromPath: ide2 === 'none' || ide2 === 'cdrom' || ide2 === '' ? null : this.isoPath(ide2),
      cloudInit: {
        hostname: c.name ?? `VM${vm.vmid}`,
        user: c.ciuser ?? null,
        passwordHash: c.cipassword ?? null,
        sshKeys,
        ipconfig0: c.ipconfig0 ?? null,
      },
    };
  }

  /**
   * Runs `work` as a task that, as PVE's workers do, first checks the VM's config lock (the task
   * fails with `VM is locked (<lock>)` while another operation holds it; not with `skiplock`), then
   * holds its own `lock` while it works, released whatever happens.
   */
  lockedTask(
    vm: VmRecord,
    lock: string | null,
    type: string,
    user: string,
    work: (log: TaskLog) => Promise<void>,
    skiplock = false,
  ): string {
    return this.tasks.start(vm.node, type, String(vm.vmid), user, async (log) => {
      if (!skiplock) this.checkLock(vm);
      if (lock !== null) vm.lock = lock;
      try {
        await work(log);
      } finally {
        if (lock !== null && this.vms.get(vm.vmid) === vm) vm.lock = null;
      }
    });
  }

  // --- operations ----------------------------------------------------------------------------------

  clone(src: VmRecord, newid: number, name: string | null, storage: string | null, user: string): string {
    if (this.vms.has(newid)) throw pveFail(`unable to create VM ${newid}: config file already exists`);
    if (storage !== null && !this.storage(storage).content.includes('images'))
      throw pveFail(`storage '${storage}' does not support content-type 'images'`);
    if (src.lock !== null) this.checkLock(src);
    const disk = driveOf(src.config.scsi0 ?? '');
    const target = storage ?? (disk.volid.split(':')[0] || 'local-lvm');
    const config: Record<string, string> = { ...src.config };
    delete config.template;
    config.name = name ?? `Copy-of-VM-${src.config.name ?? src.vmid}`;
    config.scsi0 = `${target}:vm-${newid}-disk-0,size=${bytesToSize(disk.size || 2 * GIB)}`;
    if (config.ide0) config.ide0 = `${target}:vm-${newid}-cloudinit,media=cdrom`;
    config.net0 = `virtio=${this.mac(newid)},bridge=vmbr0,firewall=1`;
    config.smbios1 = `uuid=${this.uuid(newid)}`;
    config.vmgenid = this.uuid(newid + 1);
    const vm: VmRecord = {
      vmid: newid,
      node: src.node,
      config,
      lock: 'clone',
      snapshots: new Map(),
      parent: null,
    };
    this.vms.set(newid, vm);
    return this.tasks.start(src.node, 'qmclone', String(src.vmid), user, async () => {
      try {
        await this.engine.cloneDisk(src.vmid, newid);
        vm.lock = null;
      } catch (err) {
        this.vms.delete(newid);
        throw err;
      }
    });
  }

  destroy(vm: VmRecord, user: string): string {
    if (this.running(vm)) throw pveFail(`VM ${vm.vmid} is running - destroy failed`);
    return this.lockedTask(vm, 'destroyed', 'qmdestroy', user, async () => {
      await this.engine.destroyDisk(vm.vmid);
      this.vms.delete(vm.vmid);
    });
  }

  async hashPassword(password: string): Promise<string> {
    // PVE keeps a crypt(3) SHA-512 hash (PVE::Tools::encrypt_pw); an already-hashed value is kept.
    if (/^\$(?:[156]|2[ay])(\$.+){2}/.test(password)) return password;
    const salt = randomBytes(12)
      .toString('base64')
      .replace(/[^A-Za-z0-9./]/g, '.')
      .slice(0, 16);
    return new Promise((resolve, reject) => {
      const child = execFile('openssl', ['passwd', '-6', '-salt', salt, '-stdin'], (err, stdout) => {
        if (err) reject(new Error('unable to hash the password'));
        else resolve(stdout.trim());
      });
      child.stdin?.end(`${password}\n`);
    });
  }

  power(vm: VmRecord, action: string, params: Readonly<Record<string, unknown>>, user: string): string {
    const running = this.running(vm);
    const qmp = this.engine.runState(vm.vmid).qmpstatus;
    const taskType = {
      start: 'qmstart',
      stop: 'qmstop',
      shutdown: 'qmshutdown',
      reboot: 'qmreboot',
      reset: 'qmreset',
      suspend: 'qmpause',
      resume: 'qmresume',
    }[action]!;
    if (['reset', 'suspend', 'resume', 'reboot'].includes(action) && !running)
      throw pveFail(`VM ${vm.vmid} not running`);
    if (action === 'start' && vm.config.template === '1')
      throw pveFail(`you can't start a vm if it's a template`);
    if ((action === 'reboot' || (action === 'shutdown' && params.forceStop !== true)) && qmp === 'paused')
      throw pveFail('VM is paused - cannot shutdown');
    const timeoutS = typeof params.timeout === 'number' ? params.timeout : 180;
    return this.lockedTask(
      vm,
      null,
      taskType,
      user,
      async (log) => {
        switch (action) {
          case 'start':
            if (this.running(vm)) throw new Error(`VM ${vm.vmid} already running`);
            await this.engine.start(this.spec(vm));
            return;
          case 'stop':
            if (this.running(vm)) await this.engine.stop(vm.vmid);
            return;
          case 'shutdown':
            if (!this.running(vm)) return;
            if (this.engine.runState(vm.vmid).qmpstatus === 'paused') {
              log.warn('VM is paused - stop instead of shutdown');
              await this.engine.stop(vm.vmid);
              return;
            }
            try {
              await this.engine.shutdown(vm.vmid, timeoutS);
            } catch {
              if (params.forceStop !== true) throw new Error('VM quit/powerdown failed - got timeout');
              await this.engine.stop(vm.vmid);
            }
            return;
          case 'reboot':
            // PVE's reboot is a shutdown and a start, which applies pending changes (boot order, CD-ROM).
            try {
              await this.engine.shutdown(vm.vmid, timeoutS);
            } catch {
              throw new Error('VM quit/powerdown failed - got timeout');
            }
            await this.engine.start(this.spec(vm));
            return;
          case 'reset':
            await this.engine.reset(vm.vmid);
            return;
          case 'suspend':
            await this.engine.suspend(vm.vmid);
            return;
          case 'resume':
            await this.engine.resume(vm.vmid);
            return;
        }
      },
      params.skiplock === true,
    );
  }

  snapshotCreate(vm: VmRecord, name: string, description: string, vmstate: boolean, user: string): string {
    if (name === 'current') throw pveFail(`snapshot name 'current' is reserved`);
    if (name === 'vzdump') throw pveFail(`snapshot name 'vzdump' is reserved`);
    return this.lockedTask(vm, 'snapshot', 'qmsnapshot', user, async () => {
      if (vm.snapshots.has(name)) throw new Error(`snapshot name '${name}' already used`);
      // PVE saves the RAM only of a running VM (a stopped one has none).
      const withState = vmstate && this.running(vm);
      await this.engine.snapshotCreate(vm.vmid, name, withState);
      vm.snapshots.set(name, {
        name,
        description,
        snaptime: this.nowS(),
        vmstate: withState,
        parent: vm.parent,
        config: { ...vm.config },
      });
      vm.parent = name;
    });
  }

  snapshotDelete(vm: VmRecord, name: string, user: string): string {
    const snap = vm.snapshots.get(name);
    if (!snap) throw pveFail(`snapshot '${name}' does not exist`);
    return this.lockedTask(vm, 'snapshot-delete', 'qmdelsnapshot', user, async () => {
      await this.engine.snapshotDelete(vm.vmid, name);
      vm.snapshots.delete(name);
      for (const s of vm.snapshots.values()) if (s.parent === name) s.parent = snap.parent;
      if (vm.parent === name) vm.parent = snap.parent;
    });
  }

  snapshotRollback(vm: VmRecord, name: string, start: boolean, user: string): string {
    const snap = vm.snapshots.get(name);
    if (!snap) throw pveFail(`snapshot '${name}' does not exist`);
    return this.lockedTask(vm, 'rollback', 'qmrollback', user, async () => {
      vm.config = { ...snap.config };
      vm.parent = name;
      if (snap.vmstate) {
        // The saved RAM is loaded into a running QEMU: a stopped VM is started first.
        if (!this.running(vm)) await this.engine.start(this.spec(vm));
        await this.engine.snapshotRollback(vm.vmid, name, true);
      } else {
        if (this.running(vm)) await this.engine.stop(vm.vmid);
        await this.engine.snapshotRollback(vm.vmid, name, false);
        if (start) await this.engine.start(this.spec(vm));
      }
    });
  }

  /** vzdump of one VM; as PVE, a guest that fails leaves the task with `job errors`. */
  vzdump(
    node: string,
    vmid: number,
    mode: 'snapshot' | 'suspend' | 'stop',
    compress: string,
    storage: string,
    notesTemplate: string | null,
    user: string,
  ): string {
    if (!this.storage(storage).content.includes('backup'))
      throw pveFail(`storage '${storage}' does not support backups`);
    const engineCompress: EngineCompress =
      compress === '0' ? 'none' : compress === '1' ? 'lzo' : (compress as EngineCompress);
    const ext =
      this.engine.archiveSuffix?.(engineCompress) ??
      { none: 'vma', lzo: 'vma.lzo', gzip: 'vma.gz', zstd: 'vma.zst' }[engineCompress];
    return this.tasks.start(node, 'vzdump', String(vmid), user, async (log) => {
      const vm = this.vms.get(vmid);
      try {
        if (!vm || vm.node !== node) throw new Error(`unable to find VM '${vmid}'`);
        this.checkLock(vm);
        const notes = notesTemplate === null ? null : this.expandNotes(notesTemplate, vm);
        vm.lock = 'backup';
        try {
          const d = new Date(this.clock.now());
          const p2 = (n: number): string => String(n).padStart(2, '0');
          const stamp = `${d.getUTCFullYear()}_${p2(d.getUTCMonth() + 1)}_${p2(d.getUTCDate())}-${p2(d.getUTCHours())}_${p2(d.getUTCMinutes())}_${p2(d.getUTCSeconds())}`;
          const file = `vzdump-qemu-${vmid}-${stamp}.${ext}`;
          const archivePath = path.join(this.dataDir, 'dump', file);
          const wasRunning = this.running(vm);
          if (mode === 'stop' && wasRunning)
            await this.engine.shutdown(vmid, 600).catch(() => this.engine.stop(vmid));
          if (mode === 'suspend' && wasRunning) await this.engine.suspend(vmid);
          let size: number;
          try {
            size = await this.engine.backup(vmid, archivePath, engineCompress);
          } finally {
            if (mode === 'stop' && wasRunning) await this.engine.start(this.spec(vm));
            if (mode === 'suspend' && wasRunning) await this.engine.resume(vmid);
          }
          const volid = `${storage}:backup/${file}`;
          const existing = this.backups.findIndex((b) => b.volid === volid && b.node === node);
          if (existing >= 0) this.backups.splice(existing, 1);
          this.backups.push({
            node,
            storage,
            volid,
            vmid,
            ctime: this.nowS(),
            size,
            notes,
            format: ext,
            compress: engineCompress,
            path: archivePath,
            config: { ...vm.config },
          });
          log.log(`INFO: Finished Backup of VM ${vmid}`);
        } finally {
          if (this.vms.get(vmid) === vm) vm.lock = null;
        }
      } catch (err) {
        log.log(`ERROR: Backup of VM ${vmid} failed - ${(err as Error).message}`);
        throw new Error('job errors');
      }
    });
  }

  /** PVE's notes template: `\\` and `\n` unescaped, `{{cluster}}`, `{{guestname}}`, `{{node}}`, `{{vmid}}` replaced. */
  private expandNotes(template: string, vm: VmRecord): string {
    const unescaped = template.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    const vars: Record<string, string> = {
      cluster: this.clusterName,
      guestname: vm.config.name ?? `VM${vm.vmid}`,
      node: vm.node,
      vmid: String(vm.vmid),
    };
    return unescaped.replace(/\{\{([^\s{}]+)\}\}/g, (_m, v: string) => {
      const value = vars[v];
      if (value === undefined) throw new Error(`unknown variable '${v}'`);
      return value;
    });
  }

  backupsOf(node: string, storage: string): BackupRecord[] {
    return this.backups.filter((b) => b.node === node && b.storage === storage);
  }

  deleteVolume(node: string, storage: string, volume: string, user: string): string {
    this.storage(storage);
    const volid = volume.includes(':') ? volume : `${storage}:${volume}`;
    const i = this.backups.findIndex((b) => b.node === node && b.volid === volid);
    if (i < 0) throw pveFail(`volume '${volid}' does not exist`);
    return this.tasks.start(node, 'imgdel', '', user, async () => {
      const j = this.backups.findIndex((b) => b.node === node && b.volid === volid);
      if (j >= 0) this.backups.splice(j, 1);
    });
  }

  restore(
    node: string,
    vmid: number,
    archive: string,
    force: boolean,
    storage: string | null,
    start: boolean,
    user: string,
  ): string {
    this.checkNode(node);
    const backup = this.backups.find((b) => b.node === node && b.volid === archive);
    if (!backup) throw pveFail(`volume '${archive}' does not exist`);
    const existing = this.vms.get(vmid);
    if (existing) {
      if (existing.node !== node)
        throw pveFail(`unable to restore VM ${vmid} - VM ${vmid} already exists on node '${existing.node}'`);
      if (!force) throw pveFail(`unable to restore VM ${vmid} - VM ${vmid} already exists on node '${node}'`);
      this.checkLock(existing);
      if (this.running(existing)) throw pveFail(`unable to restore VM ${vmid} - VM is running`);
    }
    const target = storage ?? 'local-lvm';
    const config: Record<string, string> = { ...backup.config };
    const disk = driveOf(config.scsi0 ?? '');
    config.scsi0 = `${target}:vm-${vmid}-disk-0,size=${bytesToSize(disk.size || 2 * GIB)}`;
    if (config.ide0) config.ide0 = `${target}:vm-${vmid}-cloudinit,media=cdrom`;
    delete config.template;
    const vm: VmRecord = existing ?? { vmid, node, config, lock: null, snapshots: new Map(), parent: null };
    this.vms.set(vmid, vm);
    vm.lock = 'create';
    return this.tasks.start(node, 'qmrestore', String(vmid), user, async () => {
      try {
        await this.engine.restore(vmid, backup.path, backup.compress);
        vm.config = config;
        vm.snapshots.clear();
        vm.parent = null;
        if (start) await this.engine.start(this.spec(vm));
      } catch (err) {
        if (!existing) this.vms.delete(vmid);
        throw err;
      } finally {
        vm.lock = null;
      }
    });
  }
}
