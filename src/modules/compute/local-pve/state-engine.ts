/**
 * A PveEngine that is a state machine in memory: power states (stopped, running, paused), disks
 * (a size and a content word, so a test can tell a wiped or restored disk), internal snapshots with
 * or without the running state, backup archives, the CD-ROM medium and a guest agent that answers
 * or not. Time comes from the injected clock; each operation completes after `opDelayMs` (0: at
 * once), so the server's tasks run asynchronously yet tests stay fast.
 */
import type { Clock } from '../../../kernel/clock.ts';
import type { EngineCompress, EngineRunState, EngineVmSpec, PveEngine } from './pve-engine.ts';

export interface StateEngineOptions {
  readonly clock: Clock;
  /** How long each operation takes (real milliseconds; default 0). */
  readonly opDelayMs?: number;
  /** Whether a running guest's agent answers, unless set per VM (default true). */
  readonly agentRunning?: boolean;
}

interface Disk {
  sizeGb: number;
  /** What is on the disk: the template it was cloned from, then whatever a test wrote. */
  content: string;
  snapshots: Map<string, { content: string; run: RunSnapshot | null }>;
}

interface RunSnapshot {
  readonly qmpstatus: string;
  readonly cdromPath: string | null;
}

interface Run {
  qmpstatus: 'running' | 'paused';
  startedAtMs: number;
  spec: EngineVmSpec;
  cdromPath: string | null;
  resets: number;
}

const COMPRESSION_RATIO: Readonly<Record<EngineCompress, number>> = {
  none: 1,
  lzo: 0.55,
  gzip: 0.45,
  zstd: 0.4,
};

export class StateEngine implements PveEngine {
  readonly kind = 'state' as const;
  private readonly disks = new Map<number, Disk>();
  private readonly runs = new Map<number, Run>();
  private readonly archives = new Map<string, { sizeGb: number; content: string }>();
  private readonly agent = new Map<number, boolean>();
  private readonly ignoresAcpi = new Set<number>();
  /** Passwords set through the guest agent (user → crypt or clear text as sent), per VM: for tests. */
  readonly guestPasswords = new Map<number, Map<string, string>>();

  constructor(private readonly options: StateEngineOptions) {}

  private gate: Promise<void> | null = null;

  private async delay(): Promise<void> {
    const ms = this.options.opDelayMs ?? 0;
    if (ms > 0) await new Promise((r) => setTimeout(r, ms));
    while (this.gate !== null) await this.gate;
  }

  /**
   * Holds every operation until the returned function is called: a test sees tasks `running` and
   * their locks held for as long as it needs, whatever the machine's speed.
   */
  holdOperations(): () => void {
    let release = (): void => undefined;
    const gate = new Promise<void>((r) => (release = r));
    this.gate = gate;
    return () => {
      if (this.gate === gate) this.gate = null;
      release();
    };
  }

  private disk(vmid: number): Disk {
    const d = this.disks.get(vmid);
    if (!d) throw new Error(`no disk for VM ${vmid}`);
    return d;
  }

  // --- for tests -------------------------------------------------------------------------------

  /** Whether the guest agent of this VM answers while it runs. */
  setAgentRunning(vmid: number, running: boolean): void {
    this.agent.set(vmid, running);
  }
  /** The guest ignores the ACPI power button: a shutdown times out. */
  setIgnoresAcpi(vmid: number, ignores: boolean): void {
    if (ignores) this.ignoresAcpi.add(vmid);
    else this.ignoresAcpi.delete(vmid);
  }
  /** What is on the VM's disk (the template's word after a clone). */
  diskContent(vmid: number): string | null {
    return this.disks.get(vmid)?.content ?? null;
  }
  /** Writes on the VM's disk (a marker a test later expects gone or back). */
  writeDisk(vmid: number, content: string): void {
    this.disk(vmid).content = content;
  }
  diskSizeGb(vmid: number): number | null {
    return this.disks.get(vmid)?.sizeGb ?? null;
  }
  /** The spec the VM was last started with, while it runs. */
  runningSpec(vmid: number): EngineVmSpec | null {
    return this.runs.get(vmid)?.spec ?? null;
  }
  /** The ISO in the running VM's CD-ROM drive. */
  cdrom(vmid: number): string | null {
    return this.runs.get(vmid)?.cdromPath ?? null;
  }
  /** How many times the running VM was reset. */
  resetCount(vmid: number): number {
    return this.runs.get(vmid)?.resets ?? 0;
  }

  // --- PveEngine -------------------------------------------------------------------------------

  async createTemplateDisk(vmid: number, sizeGb: number): Promise<void> {
    this.disks.set(vmid, { sizeGb, content: `template-${vmid}`, snapshots: new Map() });
  }

  async cloneDisk(fromVmid: number, toVmid: number): Promise<void> {
    await this.delay();
    const from = this.disk(fromVmid);
    this.disks.set(toVmid, { sizeGb: from.sizeGb, content: from.content, snapshots: new Map() });
  }

  async resizeDisk(vmid: number, sizeGb: number): Promise<void> {
    await this.delay();
    const d = this.disk(vmid);
    d.sizeGb = Math.max(d.sizeGb, sizeGb);
  }

  async destroyDisk(vmid: number): Promise<void> {
    await this.delay();
    this.runs.delete(vmid);
    this.disks.delete(vmid);
  }

  async start(spec: EngineVmSpec): Promise<void> {
    await this.delay();
    this.disk(spec.vmid);
    if (this.runs.has(spec.vmid)) throw new Error(`VM ${spec.vmid} already running`);
    this.runs.set(spec.vmid, {
      qmpstatus: 'running',
      startedAtMs: this.options.clock.now(),
      spec,
      cdromPath: spec.cdromPath,
      resets: 0,
    });
  }

  async stop(vmid: number): Promise<void> {
    await this.delay();
    this.runs.delete(vmid);
  }

  async shutdown(vmid: number, timeoutS: number): Promise<void> {
    await this.delay();
    const run = this.runs.get(vmid);
    if (!run) return;
    if (this.ignoresAcpi.has(vmid) || run.qmpstatus === 'paused')
      throw new Error(`VM quit/powerdown failed - got timeout after ${timeoutS} s`);
    this.runs.delete(vmid);
  }

  async reset(vmid: number): Promise<void> {
    await this.delay();
    const run = this.mustRun(vmid);
    run.resets += 1;
    run.startedAtMs = this.options.clock.now();
  }

  async suspend(vmid: number): Promise<void> {
    await this.delay();
    this.mustRun(vmid).qmpstatus = 'paused';
  }

  async resume(vmid: number): Promise<void> {
    await this.delay();
    this.mustRun(vmid).qmpstatus = 'running';
  }

  private mustRun(vmid: number): Run {
    const run = this.runs.get(vmid);
    if (!run) throw new Error(`VM ${vmid} not running`);
    return run;
  }

  runState(vmid: number): EngineRunState {
    const run = this.runs.get(vmid);
    if (!run) {
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
    const uptimeS = Math.max(0, Math.floor((this.options.clock.now() - run.startedAtMs) / 1000));
    const busy = run.qmpstatus === 'running' ? 0.02 + ((vmid * 7919) % 13) / 100 : 0;
    return {
      status: 'running',
      qmpstatus: run.qmpstatus,
      uptimeS,
      cpu: Math.round(busy * run.spec.cores * 1e4) / 1e4,
      memBytes: Math.floor(run.spec.memoryMb * 1024 * 1024 * 0.35),
      netin: uptimeS * 1_500,
      netout: uptimeS * 900,
      diskread: 50_000_000 + uptimeS * 4_096,
      diskwrite: 10_000_000 + uptimeS * 2_048,
    };
  }

  async snapshotCreate(vmid: number, name: string, vmstate: boolean): Promise<void> {
    await this.delay();
    const d = this.disk(vmid);
    if (d.snapshots.has(name)) throw new Error(`snapshot name '${name}' already used`);
    const run = this.runs.get(vmid);
    d.snapshots.set(name, {
      content: d.content,
      run: vmstate && run ? { qmpstatus: run.qmpstatus, cdromPath: run.cdromPath } : null,
    });
  }

  async snapshotRollback(vmid: number, name: string, vmstate: boolean): Promise<void> {
    await this.delay();
    const d = this.disk(vmid);
    const snap = d.snapshots.get(name);
    if (!snap) throw new Error(`snapshot '${name}' does not exist`);
    d.content = snap.content;
    if (vmstate && snap.run) {
      const run = this.runs.get(vmid);
      if (!run)
        throw new Error(`VM ${vmid} not running (a snapshot with its state is loaded into a running VM)`);
      run.qmpstatus = snap.run.qmpstatus === 'paused' ? 'paused' : 'running';
      run.cdromPath = snap.run.cdromPath;
    } else {
      this.runs.delete(vmid);
    }
  }

  async snapshotDelete(vmid: number, name: string): Promise<void> {
    await this.delay();
    this.disk(vmid).snapshots.delete(name);
  }

  async backup(vmid: number, archivePath: string, compress: EngineCompress): Promise<number> {
    await this.delay();
    const d = this.disk(vmid);
    this.archives.set(archivePath, { sizeGb: d.sizeGb, content: d.content });
    // A plausible archive: about 1.5 GiB of used data per 10 GiB of disk, compressed.
    return Math.floor(d.sizeGb * 0.15 * 1024 ** 3 * COMPRESSION_RATIO[compress]);
  }

  async restore(vmid: number, archivePath: string): Promise<void> {
    await this.delay();
    const a = this.archives.get(archivePath);
    if (!a) throw new Error(`archive '${archivePath}' does not exist`);
    this.runs.delete(vmid);
    this.disks.set(vmid, { sizeGb: a.sizeGb, content: a.content, snapshots: new Map() });
  }

  async changeMedium(vmid: number, isoPath: string | null): Promise<void> {
    await this.delay();
    const run = this.runs.get(vmid);
    if (run) run.cdromPath = isoPath;
  }

  async guestAgent(vmid: number): Promise<{ os: Record<string, string>; interfaces: unknown[] } | null> {
    const run = this.runs.get(vmid);
    if (!run || run.qmpstatus !== 'running') return null;
    if (!(this.agent.get(vmid) ?? this.options.agentRunning ?? true)) return null;
    const ip = run.spec.cloudInit.ipconfig0?.match(/ip=([0-9.]+)\/(\d+)/);
    const mac = `bc:24:11:${[vmid >> 16, vmid >> 8, vmid].map((b) => (b & 255).toString(16).padStart(2, '0')).join(':')}`;
    return {
      os: {
        id: 'debian',
        name: 'Debian GNU/Linux',
        'pretty-name': 'Debian GNU/Linux 12 (bookworm)',
        version: '12 (bookworm)',
        'version-id': '12',
        'kernel-release': '6.1.0-28-cloud-amd64',
        'kernel-version': '#1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1',
        machine: 'x86_64',
      },
      interfaces: [
        {
          name: 'lo',
          'hardware-address': '00:00:00:00:00:00',
          'ip-addresses': [{ 'ip-address': '127.0.0.1', 'ip-address-type': 'ipv4', prefix: 8 }],
        },
        {
          name: 'eth0',
          'hardware-address': mac,
          'ip-addresses': ip
            ? [{ 'ip-address': ip[1], 'ip-address-type': 'ipv4', prefix: Number(ip[2]) }]
            : [],
        },
      ],
    };
  }

  async guestSetUserPassword(
    vmid: number,
    username: string,
    password: string,
    _crypted: boolean,
  ): Promise<void> {
    if ((await this.guestAgent(vmid)) === null) throw new Error('QEMU guest agent is not running');
    const users = this.guestPasswords.get(vmid) ?? new Map<string, string>();
    users.set(username, password);
    this.guestPasswords.set(vmid, users);
  }

  async close(): Promise<void> {
    this.runs.clear();
  }
}
