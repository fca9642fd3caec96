/**
 * The production compute provider: a typed client of the Proxmox VE HTTP API (pve-docs, "API
 * Viewer"), one PVE call per method. Long operations answer a task (UPID) that waitTask polls at
 * `/nodes/{node}/tasks/{upid}/status` until it is `stopped`; its `exitstatus` is `OK` (or
 * `WARNINGS: n`) on success, else the error text, raised as a ProviderError.
 */
import type {
  BackupCompress,
  BackupMode,
  BackupVolume,
  ComputeProvider,
  ConsoleTicket,
  GuestInfo,
  IsoVolume,
  PowerAction,
  RrdCf,
  RrdPoint,
  RrdTimeframe,
  StartedTask,
  TaskStatus,
  Upid,
  VmConfig,
  VmConfigChange,
  VmCurrentStatus,
  VmListEntry,
  VmSnapshot,
} from './compute-provider.ts';
import { ProviderError } from './compute-provider.ts';
import { PveHttp, type PveParams } from './pve-http.ts';
import type { PveProviderSettings } from './provider-config.ts';

export interface PveProviderOptions {
  /** How long an ACPI shutdown may take before PVE stops the VM hard (`timeout` with `forceStop=1`). */
  readonly shutdownTimeoutS?: number;
  /** First and longest interval between task polls (default 100 ms, growing to 2 s). */
  readonly pollMinMs?: number;
  readonly pollMaxMs?: number;
  /** Milliseconds now (injected in tests). */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

type Raw = Record<string, unknown>;

const num = (v: unknown, fallback = 0): number => {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return fallback;
};
const numOrNull = (v: unknown): number | null => (v === undefined || v === null || v === '' ? null : num(v));
const strOrNull = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
const flag = (v: unknown): boolean => v === 1 || v === '1' || v === true;
const seg = encodeURIComponent;

/** The text PVE's `notes-template` wants: one line, `\` and newline escaped (`\\`, `\n`). */
export function notesTemplate(notes: string): string {
  return notes.replace(/\\/g, '\\\\').replace(/\r?\n/g, '\\n').replace(/\{\{/g, '{ {');
}

/** `sshkeys` as PVE requires it: URL-encoded (its `urlencoded` format allows only `[-%a-zA-Z0-9_.!~*'()]`). */
export function encodeSshKeys(keys: string): string {
  return encodeURIComponent(keys);
}

function toListEntry(r: Raw): VmListEntry {
  const status = r.status === 'running' ? 'running' : 'stopped';
  return {
    vmid: num(r.vmid),
    name: strOrNull(r.name),
    status,
    qmpstatus: strOrNull(r.qmpstatus),
    template: flag(r.template),
    lock: strOrNull(r.lock),
    uptime: num(r.uptime),
    cpu: num(r.cpu),
    cpus: num(r.cpus),
    mem: num(r.mem),
    maxmem: num(r.maxmem),
    maxdisk: num(r.maxdisk),
    netin: num(r.netin),
    netout: num(r.netout),
    diskread: num(r.diskread),
    diskwrite: num(r.diskwrite),
  };
}

const CONFIG_STRINGS = [
  'name',
  'boot',
  'scsi0',
  'ide2',
  'ide0',
  'ciuser',
  'cipassword',
  'ipconfig0',
  'nameserver',
  'searchdomain',
  'agent',
  'description',
  'digest',
] as const;

function toConfig(r: Raw): VmConfig {
  const out: Record<string, unknown> = {};
  for (const k of CONFIG_STRINGS) if (r[k] !== undefined && r[k] !== null) out[k] = String(r[k]);
  if (r.cores !== undefined) out.cores = num(r.cores);
  if (r.sockets !== undefined) out.sockets = num(r.sockets);
  // PVE 8.1 made `memory` a property string (`[current=]<MiB>`); older versions answer a number.
  if (r.memory !== undefined)
    out.memory = num(
      String(r.memory)
        .replace(/^current=/, '')
        .split(',')[0],
    );
  if (typeof r.sshkeys === 'string') {
    try {
      out.sshkeys = decodeURIComponent(r.sshkeys);
    } catch {
      out.sshkeys = r.sshkeys;
    }
  }
  return out as VmConfig;
}

function configParams(change: VmConfigChange): PveParams {
  const p: Record<string, string | number | undefined> = {};
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined || k === 'delete') continue;
    p[k] = k === 'sshkeys' ? encodeSshKeys(String(v)) : (v as string | number);
  }
  if (change.delete && change.delete.length > 0) p.delete = change.delete.join(',');
  return p;
}

function started(node: string, data: unknown): StartedTask {
  if (typeof data !== 'string' || !data.startsWith('UPID:'))
    throw new ProviderError(502, 'PVE answered no task id where one was expected');
  return { node, upid: data };
}
const maybeStarted = (node: string, data: unknown): StartedTask | null =>
  typeof data === 'string' && data.startsWith('UPID:') ? { node, upid: data } : null;

/** PVE's `compress` values: our `none` is `0`. */
const COMPRESS: Readonly<Record<BackupCompress, string>> = {
  zstd: 'zstd',
  gzip: 'gzip',
  lzo: 'lzo',
  none: '0',
};

export class PveProvider implements ComputeProvider {
  readonly http: PveHttp;
  private readonly shutdownTimeoutS: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly settings: PveProviderSettings,
    private readonly options: PveProviderOptions = {},
  ) {
    this.http = new PveHttp({
      url: settings.url,
      tokenId: settings.tokenId,
      tokenSecret: settings.tokenSecret,
      caFile: settings.caFile,
    });
    this.shutdownTimeoutS = options.shutdownTimeoutS ?? 60;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private vm(node: string, vmid: number): string {
    return `/nodes/${seg(node)}/qemu/${vmid}`;
  }

  async nodes(): Promise<string[]> {
    if (this.settings.nodes.length > 0) return [...this.settings.nodes];
    const list = await this.http.get<Raw[]>('/nodes');
    return list
      .filter((n) => n.status === 'online')
      .map((n) => String(n.node))
      .sort();
  }

  async listVms(node: string): Promise<VmListEntry[]> {
    const list = await this.http.get<Raw[]>(`/nodes/${seg(node)}/qemu`, { full: true });
    return list.map(toListEntry);
  }

  async nextVmid(): Promise<number> {
    return num(await this.http.get<unknown>('/cluster/nextid'));
  }

  async cloneVm(node: string, templateVmid: number, newVmid: number, name: string): Promise<StartedTask> {
    const data = await this.http.post<unknown>(`${this.vm(node, templateVmid)}/clone`, {
      newid: newVmid,
      name,
      full: true,
      storage: this.settings.storage ?? undefined,
    });
    return started(node, data);
  }

  async vmConfig(node: string, vmid: number): Promise<VmConfig> {
    return toConfig(await this.http.get<Raw>(`${this.vm(node, vmid)}/config`));
  }

  async updateVmConfig(node: string, vmid: number, change: VmConfigChange): Promise<StartedTask | null> {
    return maybeStarted(
      node,
      await this.http.post<unknown>(`${this.vm(node, vmid)}/config`, configParams(change)),
    );
  }

  async resizeDisk(node: string, vmid: number, disk: string, size: string): Promise<StartedTask | null> {
    return maybeStarted(node, await this.http.put<unknown>(`${this.vm(node, vmid)}/resize`, { disk, size }));
  }

  async regenerateCloudInit(node: string, vmid: number): Promise<void> {
    await this.http.put<unknown>(`${this.vm(node, vmid)}/cloudinit`);
  }

  async power(node: string, vmid: number, action: PowerAction): Promise<StartedTask> {
    const params: PveParams =
      action === 'shutdown'
        ? { timeout: this.shutdownTimeoutS, forceStop: true }
        : action === 'reboot'
          ? { timeout: this.shutdownTimeoutS }
          : {};
    return started(node, await this.http.post<unknown>(`${this.vm(node, vmid)}/status/${action}`, params));
  }

  async currentStatus(node: string, vmid: number): Promise<VmCurrentStatus> {
    const r = await this.http.get<Raw>(`${this.vm(node, vmid)}/status/current`);
    return { ...toListEntry({ vmid, ...r }), agent: flag(r.agent) };
  }

  async destroyVm(node: string, vmid: number): Promise<StartedTask> {
    const data = await this.http.delete<unknown>(this.vm(node, vmid), {
      purge: true,
      'destroy-unreferenced-disks': true,
    });
    return started(node, data);
  }

  async listSnapshots(node: string, vmid: number): Promise<VmSnapshot[]> {
    const list = await this.http.get<Raw[]>(`${this.vm(node, vmid)}/snapshot`);
    return list
      .filter((s) => s.name !== 'current')
      .map((s) => ({
        name: String(s.name),
        description: typeof s.description === 'string' ? s.description : '',
        snaptime: numOrNull(s.snaptime),
        vmstate: flag(s.vmstate),
        parent: strOrNull(s.parent),
      }));
  }

  async createSnapshot(
    node: string,
    vmid: number,
    name: string,
    description: string,
    vmstate: boolean,
  ): Promise<StartedTask> {
    const data = await this.http.post<unknown>(`${this.vm(node, vmid)}/snapshot`, {
      snapname: name,
      description,
      vmstate,
    });
    return started(node, data);
  }

  async deleteSnapshot(node: string, vmid: number, name: string): Promise<StartedTask> {
    return started(node, await this.http.delete<unknown>(`${this.vm(node, vmid)}/snapshot/${seg(name)}`));
  }

  async rollbackSnapshot(node: string, vmid: number, name: string): Promise<StartedTask> {
    return started(
      node,
      await this.http.post<unknown>(`${this.vm(node, vmid)}/snapshot/${seg(name)}/rollback`),
    );
  }

  async backup(
    node: string,
    vmid: number,
    mode: BackupMode,
    compress: BackupCompress,
    notes: string,
  ): Promise<StartedTask> {
    const data = await this.http.post<unknown>(`/nodes/${seg(node)}/vzdump`, {
      vmid,
      mode,
      compress: COMPRESS[compress],
      storage: this.settings.backupStorage,
      'notes-template': notesTemplate(notes),
      remove: false,
    });
    return started(node, data);
  }

  async listBackups(node: string, vmid: number): Promise<BackupVolume[]> {
    const list = await this.http.get<Raw[]>(
      `/nodes/${seg(node)}/storage/${seg(this.settings.backupStorage)}/content`,
      { content: 'backup', vmid },
    );
    return list
      .filter((b) => num(b.vmid) === vmid)
      .map((b) => ({
        volid: String(b.volid),
        vmid: num(b.vmid),
        size: num(b.size),
        ctime: num(b.ctime),
        notes: strOrNull(b.notes),
        format: String(b.format ?? ''),
      }));
  }

  async deleteBackup(node: string, volid: string): Promise<StartedTask | null> {
    const storage = volid.split(':')[0] ?? this.settings.backupStorage;
    const data = await this.http.delete<unknown>(
      `/nodes/${seg(node)}/storage/${seg(storage)}/content/${seg(volid)}`,
    );
    return maybeStarted(node, data);
  }

  async restoreBackup(node: string, vmid: number, volid: string): Promise<StartedTask> {
    const data = await this.http.post<unknown>(`/nodes/${seg(node)}/qemu`, {
      vmid,
      archive: volid,
      force: true,
      storage: this.settings.storage ?? undefined,
    });
    return started(node, data);
  }

  async listIsos(node: string): Promise<IsoVolume[]> {
    const list = await this.http.get<Raw[]>(
      `/nodes/${seg(node)}/storage/${seg(this.settings.isoStorage)}/content`,
      {
        content: 'iso',
      },
    );
    return list.map((i) => ({ volid: String(i.volid), size: num(i.size) }));
  }

  async rrdData(node: string, vmid: number, timeframe: RrdTimeframe, cf: RrdCf): Promise<RrdPoint[]> {
    const list = await this.http.get<Raw[]>(`${this.vm(node, vmid)}/rrddata`, { timeframe, cf });
    return list.map((p) => ({
      time: num(p.time),
      cpu: numOrNull(p.cpu),
      mem: numOrNull(p.mem),
      maxmem: numOrNull(p.maxmem),
      netin: numOrNull(p.netin),
      netout: numOrNull(p.netout),
      diskread: numOrNull(p.diskread),
      diskwrite: numOrNull(p.diskwrite),
    }));
  }

  async guestInfo(node: string, vmid: number): Promise<GuestInfo> {
    const os = await this.http.get<{ result?: Raw }>(`${this.vm(node, vmid)}/agent/get-osinfo`);
    const nics = await this.http.get<{ result?: Raw[] }>(
      `${this.vm(node, vmid)}/agent/network-get-interfaces`,
    );
    const o = os.result ?? {};
    return {
      os: {
        id: strOrNull(o.id),
        name: strOrNull(o['pretty-name'] ?? o.name),
        version: strOrNull(o.version ?? o['version-id']),
        kernel: strOrNull(o['kernel-release']),
      },
      interfaces: (nics.result ?? []).map((i) => ({
        name: String(i.name ?? ''),
        mac: strOrNull(i['hardware-address']),
        addresses: ((i['ip-addresses'] as Raw[] | undefined) ?? []).map((a) => ({
          address: String(a['ip-address']),
          prefix: num(a.prefix),
          family: a['ip-address-type'] === 'ipv6' ? ('ipv6' as const) : ('ipv4' as const),
        })),
      })),
    };
  }

  async setGuestPassword(node: string, vmid: number, username: string, password: string): Promise<void> {
    await this.http.post<unknown>(`${this.vm(node, vmid)}/agent/set-user-password`, {
      username,
      password,
      crypted: false,
    });
  }

  async openConsole(node: string, vmid: number): Promise<ConsoleTicket> {
    const r = await this.http.post<Raw>(`${this.vm(node, vmid)}/vncproxy`, { websocket: true });
    return { port: num(r.port), ticket: String(r.ticket), user: String(r.user), upid: String(r.upid) };
  }

  consoleUrl(node: string, vmid: number, ticket: ConsoleTicket): string {
    const base = this.http.apiBase.replace(/^http/, 'ws');
    return `${base}${this.vm(node, vmid)}/vncwebsocket?port=${ticket.port}&vncticket=${seg(ticket.ticket)}`;
  }

  async taskStatus(node: string, upid: Upid): Promise<TaskStatus> {
    const r = await this.http.get<Raw>(`/nodes/${seg(node)}/tasks/${seg(upid)}/status`);
    return {
      upid: String(r.upid ?? upid),
      node: String(r.node ?? node),
      status: r.status === 'stopped' ? 'stopped' : 'running',
      exitstatus: strOrNull(r.exitstatus),
      type: String(r.type ?? ''),
    };
  }

  async waitTask(task: StartedTask, timeoutMs: number): Promise<TaskStatus> {
    const deadline = this.now() + timeoutMs;
    let interval = this.options.pollMinMs ?? 100;
    const max = this.options.pollMaxMs ?? 2_000;
    for (;;) {
      const s = await this.taskStatus(task.node, task.upid);
      if (s.status === 'stopped') {
        const exit = s.exitstatus ?? '';
        if (exit === 'OK' || /^WARNINGS: \d+$/.test(exit)) return s;
        throw new ProviderError(500, exit === '' ? `task ${s.type} failed` : exit);
      }
      if (this.now() >= deadline)
        throw new ProviderError(504, `task ${s.type} still running after ${timeoutMs} ms`);
      await this.sleep(Math.min(interval, Math.max(0, deadline - this.now())));
      interval = Math.min(max, interval * 2);
    }
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** The PVE provider of the settings, or null when no cluster is configured (`PVE_URL` unset). */
export function createPveProvider(
  settings: PveProviderSettings | null,
  options: PveProviderOptions = {},
): PveProvider | null {
  return settings === null ? null : new PveProvider(settings, options);
}
