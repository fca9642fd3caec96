/**
 * The compute provider port: what the compute module asks of a hypervisor cluster. It is shaped
 * after the Proxmox VE API (`/api2/json`, pve-docs "API Viewer") because production runs on PVE:
 * VMs are addressed by node and vmid, long operations return a task (a UPID) that is waited for,
 * and the vocabulary (vzdump `mode`/`compress`, rrddata `timeframe`/`cf`, snapshot `vmstate`,
 * cloud-init `ciuser`/`sshkeys`) is PVE's own. The adapter (pve-provider.ts) speaks PVE's HTTP API;
 * the local PVE-shaped server (../local-pve/) answers the same API over a state machine or QEMU.
 */

/** A PVE task id: `UPID:<node>:<pid hex>:<pstart hex>:<starttime hex>:<type>:<id>:<user>:`. */
export type Upid = string;

/** A task as `GET /nodes/{node}/tasks/{upid}/status` answers it. */
export interface TaskStatus {
  readonly upid: Upid;
  readonly node: string;
  /** `running` until the task ends, then `stopped`. */
  readonly status: 'running' | 'stopped';
  /** Set once stopped: `OK`, or the error PVE reports (`WARNINGS: n` counts as success). */
  readonly exitstatus: string | null;
  /** The task type (`qmstart`, `qmclone`, `vzdump`, ...). */
  readonly type: string;
}

/** A task that was started: where it runs, and its id. */
export interface StartedTask {
  readonly node: string;
  readonly upid: Upid;
}

/** A VM as one list call per node (`GET /nodes/{node}/qemu?full=1`) gives it. */
export interface VmListEntry {
  readonly vmid: number;
  readonly name: string | null;
  /** PVE's `status`: `running` also while paused; `qmpstatus` tells (`running`, `paused`, `prelaunch`, ...). */
  readonly status: 'running' | 'stopped';
  readonly qmpstatus: string | null;
  readonly template: boolean;
  /** A lock held by a running operation (`backup`, `clone`, `rollback`, `snapshot`, ...), else null. */
  readonly lock: string | null;
  readonly uptime: number;
  /** CPU use, 0..cpus (PVE's fraction). */
  readonly cpu: number;
  readonly cpus: number;
  readonly mem: number;
  readonly maxmem: number;
  readonly maxdisk: number;
  readonly netin: number;
  readonly netout: number;
  readonly diskread: number;
  readonly diskwrite: number;
}

/** `GET /nodes/{node}/qemu/{vmid}/status/current`. */
export interface VmCurrentStatus extends VmListEntry {
  /** Whether the VM config enables the guest agent (not whether it answers). */
  readonly agent: boolean;
}

/** The VM config keys the platform reads and writes (`GET/POST /nodes/{node}/qemu/{vmid}/config`). */
export interface VmConfig {
  readonly name?: string;
  readonly cores?: number;
  readonly sockets?: number;
  /** MiB. */
  readonly memory?: number;
  /** PVE's boot order string, e.g. `order=scsi0;ide2;net0`. */
  readonly boot?: string;
  /** The main disk, e.g. `local-lvm:vm-101-disk-0,size=25G`. */
  readonly scsi0?: string;
  /** The CD-ROM drive, e.g. `local:iso/rescue.iso,media=cdrom` or `none,media=cdrom`. */
  readonly ide2?: string;
  /** The cloud-init drive, e.g. `local-lvm:cloudinit`. */
  readonly ide0?: string;
  readonly ciuser?: string;
  /** PVE stores only a hash; reads show `**********`. */
  readonly cipassword?: string;
  /** OpenSSH public keys, one per line (PVE returns them URL-encoded; the adapter decodes). */
  readonly sshkeys?: string;
  /** e.g. `ip=203.0.113.10/24,gw=203.0.113.1` or `ip=dhcp`. */
  readonly ipconfig0?: string;
  readonly nameserver?: string;
  readonly searchdomain?: string;
  /** `1` or `enabled=1,...` when the guest agent is configured. */
  readonly agent?: string;
  readonly description?: string;
  /** A config digest (SHA-1) PVE uses to refuse concurrent changes. */
  readonly digest?: string;
}

/** A change to a VM's config; `delete` lists keys to remove. */
export type VmConfigChange = Partial<Omit<VmConfig, 'digest'>> & { readonly delete?: readonly string[] };

/** A snapshot as `GET /nodes/{node}/qemu/{vmid}/snapshot` lists it (the `current` pseudo-entry left out). */
export interface VmSnapshot {
  readonly name: string;
  readonly description: string;
  /** Seconds since the epoch. */
  readonly snaptime: number | null;
  readonly vmstate: boolean;
  readonly parent: string | null;
}

/** vzdump's modes (`mode`) and compressions (`compress`: PVE's `0` is none). */
export type BackupMode = 'snapshot' | 'suspend' | 'stop';
export type BackupCompress = 'zstd' | 'gzip' | 'lzo' | 'none';

/** A backup archive as `GET /nodes/{node}/storage/{storage}/content?content=backup` lists it. */
export interface BackupVolume {
  /** e.g. `backup:backup/vzdump-qemu-101-2026_11_29-12_00_00.vma.zst`. */
  readonly volid: string;
  readonly vmid: number;
  readonly size: number;
  /** Seconds since the epoch. */
  readonly ctime: number;
  readonly notes: string | null;
  /** e.g. `vma.zst`. */
  readonly format: string;
}

/** An ISO image as `GET /nodes/{node}/storage/{storage}/content?content=iso` lists it. */
export interface IsoVolume {
  /** e.g. `local:iso/systemrescue-11.02-amd64.iso`. */
  readonly volid: string;
  readonly size: number;
}

/** rrddata's time frames and consolidation functions. */
export type RrdTimeframe = 'hour' | 'day' | 'week' | 'month' | 'year';
export type RrdCf = 'AVERAGE' | 'MAX';

/** A point of `GET /nodes/{node}/qemu/{vmid}/rrddata` (fields absent while the VM was off are null). */
export interface RrdPoint {
  /** Seconds since the epoch. */
  readonly time: number;
  readonly cpu: number | null;
  readonly mem: number | null;
  readonly maxmem: number | null;
  readonly netin: number | null;
  readonly netout: number | null;
  readonly diskread: number | null;
  readonly diskwrite: number | null;
}

/** What the guest agent says of the guest (`agent/get-osinfo`, `agent/network-get-interfaces`). */
export interface GuestInfo {
  readonly os: {
    readonly id: string | null;
    readonly name: string | null;
    readonly version: string | null;
    readonly kernel: string | null;
  };
  readonly interfaces: readonly {
    readonly name: string;
    readonly mac: string | null;
    readonly addresses: readonly {
      readonly address: string;
      readonly prefix: number;
      readonly family: 'ipv4' | 'ipv6';
    }[];
  }[];
}

/** `POST /nodes/{node}/qemu/{vmid}/vncproxy` with `websocket=1`. */
export interface ConsoleTicket {
  readonly port: number;
  /** A one-time VNC ticket (a secret: never logged). */
  readonly ticket: string;
  readonly user: string;
  readonly upid: Upid;
}

export type PowerAction = 'start' | 'stop' | 'shutdown' | 'reboot' | 'reset' | 'suspend' | 'resume';

/** Thrown when the cluster answers an error: `status` is PVE's HTTP status, `message` its reason. */
export class ProviderError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** PVE's per-parameter errors (`{errors: {param: reason}}`) when it gave them. */
    readonly errors: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** The guest agent does not answer (PVE: 500 `QEMU guest agent is not running`). */
export class GuestAgentNotRunning extends ProviderError {}

/**
 * No such VM on that node (PVE: 500 `Configuration file 'nodes/<node>/qemu-server/<vmid>.conf' does
 * not exist`).
 */
export class VmNotFound extends ProviderError {}

/**
 * The port. Every method maps to one PVE call (named beside it); tasks are started, not awaited,
 * except by `waitTask`. Listing is one call per node, never one per VM.
 */
export interface ComputeProvider {
  /** The nodes VMs are placed on (`PVE_NODES`, else `GET /nodes` online ones). */
  nodes(): Promise<string[]>;
  /** `GET /nodes/{node}/qemu?full=1`. */
  listVms(node: string): Promise<VmListEntry[]>;
  /** `GET /cluster/nextid`. */
  nextVmid(): Promise<number>;
  /** `POST /nodes/{node}/qemu/{template}/clone` `{newid, name, full=1, storage?}`. */
  cloneVm(node: string, templateVmid: number, newVmid: number, name: string): Promise<StartedTask>;
  /** `GET /nodes/{node}/qemu/{vmid}/config`. */
  vmConfig(node: string, vmid: number): Promise<VmConfig>;
  /** `POST /nodes/{node}/qemu/{vmid}/config` (form-encoded; `sshkeys` URL-encoded as PVE requires). */
  updateVmConfig(node: string, vmid: number, change: VmConfigChange): Promise<StartedTask | null>;
  /** `PUT /nodes/{node}/qemu/{vmid}/resize` `{disk, size}` (e.g. `scsi0`, `25G`). */
  resizeDisk(node: string, vmid: number, disk: string, size: string): Promise<StartedTask | null>;
  /** `PUT /nodes/{node}/qemu/{vmid}/cloudinit`: the cloud-init drive regenerated from the config. */
  regenerateCloudInit(node: string, vmid: number): Promise<void>;
  /** `POST /nodes/{node}/qemu/{vmid}/status/{action}` (`shutdown` with `timeout`, `forceStop=1`). */
  power(node: string, vmid: number, action: PowerAction): Promise<StartedTask>;
  /** `GET /nodes/{node}/qemu/{vmid}/status/current`. */
  currentStatus(node: string, vmid: number): Promise<VmCurrentStatus>;
  /** `DELETE /nodes/{node}/qemu/{vmid}?purge=1&destroy-unreferenced-disks=1`. */
  destroyVm(node: string, vmid: number): Promise<StartedTask>;
  /** `GET /nodes/{node}/qemu/{vmid}/snapshot`. */
  listSnapshots(node: string, vmid: number): Promise<VmSnapshot[]>;
  /** `POST /nodes/{node}/qemu/{vmid}/snapshot` `{snapname, description, vmstate}`. */
  createSnapshot(
    node: string,
    vmid: number,
    name: string,
    description: string,
    vmstate: boolean,
  ): Promise<StartedTask>;
  /** `DELETE /nodes/{node}/qemu/{vmid}/snapshot/{snapname}`. */
  deleteSnapshot(node: string, vmid: number, name: string): Promise<StartedTask>;
  /** `POST /nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback`. */
  rollbackSnapshot(node: string, vmid: number, name: string): Promise<StartedTask>;
  /** `POST /nodes/{node}/vzdump` `{vmid, mode, compress, storage, notes-template, remove=0}`. */
  backup(
    node: string,
    vmid: number,
    mode: BackupMode,
    compress: BackupCompress,
    notes: string,
  ): Promise<StartedTask>;
  /** `GET /nodes/{node}/storage/{backup storage}/content?content=backup&vmid=`. */
  listBackups(node: string, vmid: number): Promise<BackupVolume[]>;
  /** `DELETE /nodes/{node}/storage/{storage}/content/{volid}`. */
  deleteBackup(node: string, volid: string): Promise<StartedTask | null>;
  /** `POST /nodes/{node}/qemu` `{vmid, archive, force=1, storage?}`: the VM replaced by the archive. */
  restoreBackup(node: string, vmid: number, volid: string): Promise<StartedTask>;
  /** `GET /nodes/{node}/storage/{iso storage}/content?content=iso`. */
  listIsos(node: string): Promise<IsoVolume[]>;
  /** `GET /nodes/{node}/qemu/{vmid}/rrddata?timeframe=&cf=`. */
  rrdData(node: string, vmid: number, timeframe: RrdTimeframe, cf: RrdCf): Promise<RrdPoint[]>;
  /** `agent/get-osinfo` and `agent/network-get-interfaces`; throws GuestAgentNotRunning. */
  guestInfo(node: string, vmid: number): Promise<GuestInfo>;
  /** `POST agent/set-user-password` `{username, password, crypted=0}`; throws GuestAgentNotRunning. */
  setGuestPassword(node: string, vmid: number, username: string, password: string): Promise<void>;
  /** `POST /nodes/{node}/qemu/{vmid}/vncproxy` `{websocket=1}`. */
  openConsole(node: string, vmid: number): Promise<ConsoleTicket>;
  /** The URL a browser opens for a ticket (`wss://…/api2/json/nodes/{node}/qemu/{vmid}/vncwebsocket?port=&vncticket=`). */
  consoleUrl(node: string, vmid: number, ticket: ConsoleTicket): string;
  /** `GET /nodes/{node}/tasks/{upid}/status`. */
  taskStatus(node: string, upid: Upid): Promise<TaskStatus>;
  /** Polls taskStatus until stopped; rejects with ProviderError when exitstatus is not OK, or on timeout. */
  waitTask(task: StartedTask, timeoutMs: number): Promise<TaskStatus>;
}
