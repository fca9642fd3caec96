/**
 * What the local PVE-shaped server (pve-server.ts) runs VMs on. The server owns PVE's API surface:
 * authentication, the `{data}` envelope, tasks (UPIDs, their status and exit status), VM configs,
 * storage contents (ISOs, backup archives), `nextid` and locks; it calls an engine for what a
 * hypervisor does. Two engines implement it: a state machine (state-engine.ts, fast, for tests of
 * everything above the hypervisor) and QEMU (qemu-engine.ts: TCG, QMP over a unix socket).
 */

/** What an engine needs to boot a VM: the server derives it from the VM's PVE config. */
export interface EngineVmSpec {
  readonly vmid: number;
  readonly cores: number;
  readonly memoryMb: number;
  /** Boot order of the devices, e.g. `['scsi0', 'ide2', 'net0']` (PVE's `boot: order=...`). */
  readonly bootOrder: readonly string[];
  /** The ISO file in the CD-ROM drive (`ide2`), or null when empty. */
  readonly cdromPath: string | null;
  /** The cloud-init data PVE would write to the NoCloud drive. */
  readonly cloudInit: {
    readonly hostname: string;
    readonly user: string | null;
    /** A crypt(3) hash (never the clear password). */
    readonly passwordHash: string | null;
    readonly sshKeys: readonly string[];
    readonly ipconfig0: string | null;
  };
}

/** What `status/current` and the list read from the engine. */
export interface EngineRunState {
  readonly status: 'running' | 'stopped';
  /** QMP's `query-status` word: `running`, `paused`, `prelaunch`, `shutdown`, ... (`stopped` when off). */
  readonly qmpstatus: string;
  readonly uptimeS: number;
  /** 0..cores. */
  readonly cpu: number;
  readonly memBytes: number;
  readonly netin: number;
  readonly netout: number;
  readonly diskread: number;
  readonly diskwrite: number;
}

export type EngineCompress = 'zstd' | 'gzip' | 'lzo' | 'none';

export interface PveEngine {
  readonly kind: 'state' | 'qemu';
  /** Makes a template VM's disk (the server calls it for the templates it is configured with). */
  createTemplateDisk(vmid: number, sizeGb: number): Promise<void>;
  /** A full clone: the new VM's disk is a copy of the template's. */
  cloneDisk(fromVmid: number, toVmid: number): Promise<void>;
  /** Grows the disk (never shrinks). */
  resizeDisk(vmid: number, sizeGb: number): Promise<void>;
  /** Removes the VM's disk and internal snapshots (the VM is stopped first). */
  destroyDisk(vmid: number): Promise<void>;
  start(spec: EngineVmSpec): Promise<void>;
  /** Hard stop (QMP `quit`). */
  stop(vmid: number): Promise<void>;
  /** ACPI power button (QMP `system_powerdown`); resolves once the VM has stopped, rejects after timeoutS. */
  shutdown(vmid: number, timeoutS: number): Promise<void>;
  /** QMP `system_reset`. */
  reset(vmid: number): Promise<void>;
  /** QMP `stop` (paused in memory). */
  suspend(vmid: number): Promise<void>;
  /** QMP `cont`. */
  resume(vmid: number): Promise<void>;
  runState(vmid: number): EngineRunState;
  /** QMP `snapshot-save` (with `vmstate`: RAM and device state too; else the disk only). */
  snapshotCreate(vmid: number, name: string, vmstate: boolean): Promise<void>;
  /**
   * QMP `snapshot-load`; a snapshot with vmstate leaves the VM running as it was, without stopped.
   * The server calls it with vmstate on a running VM (it starts a stopped one first) and without
   * vmstate on a stopped VM (it stops a running one first, as PVE does).
   */
  snapshotRollback(vmid: number, name: string, vmstate: boolean): Promise<void>;
  snapshotDelete(vmid: number, name: string): Promise<void>;
  /** The disk copied to `archivePath` (`qemu-img convert`) with the compression; returns its size in bytes. */
  backup(vmid: number, archivePath: string, compress: EngineCompress): Promise<number>;
  /** The VM's disk replaced by the archive's. */
  restore(vmid: number, archivePath: string, compress: EngineCompress): Promise<void>;
  /**
   * What the engine's archives are, as a file name suffix per compression (the QEMU engine writes
   * a compressed qcow2 image: `qcow2.zst`); absent: PVE's own (`vma.zst`, `vma.gz`, `vma.lzo`, `vma`).
   */
  archiveSuffix?(compress: EngineCompress): string;
  /** The CD-ROM's medium changed while running (QMP `blockdev-change-medium` / `blockdev-remove-medium`). */
  changeMedium(vmid: number, isoPath: string | null): Promise<void>;
  /** What the guest agent answers, or null when no agent runs in the guest. */
  guestAgent(vmid: number): Promise<{ os: Record<string, string>; interfaces: unknown[] } | null>;
  /**
   * The guest agent's `set-user-password` (`crypted`: the password is a crypt(3) hash). Optional:
   * without it the server answers as PVE does once the agent has answered `guestAgent`.
   */
  guestSetUserPassword?(vmid: number, username: string, password: string, crypted: boolean): Promise<void>;
  /** Stops every VM the engine runs (the server's close). */
  close(): Promise<void>;
}
