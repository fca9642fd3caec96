import type { OsTemplates } from '../../catalog/index.ts';
import type { Clock } from '../../../kernel/clock.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { guestAgentNotRunning, providerFailed } from '../compute-errors.ts';
import {
  GuestAgentNotRunning,
  ProviderError,
  type RrdTimeframe,
  type VmListEntry,
  VmNotFound,
} from '../provider/compute-provider.ts';
import type { InstanceAccess } from './instance-access.ts';
import {
  instanceView,
  ipsOf,
  listedView,
  statusOf,
  type InstanceStatus,
  type InstanceView,
  type IpAddressView,
} from './instance-view.ts';
import type { Instance, InstancesRepository } from './instances-repository.ts';
import type { ProviderHolder } from './provider-holder.ts';
import { parseSshPublicKey } from './ssh-public-keys.ts';

export const TIMEFRAMES: readonly RrdTimeframe[] = ['hour', 'day', 'week', 'month', 'year'];

/** An OS template offered for instances (those with a PVE template VM). */
export interface TemplateAnswer {
  id: number;
  slug: string;
  name: string;
  min_memory_mb: number;
  min_disk_gb: number;
  locations: string[] | null;
}

export interface LiveStatusAnswer {
  status: InstanceStatus;
  uptime_s: number;
  cpu: number;
  mem_bytes: number;
  netin: number;
  netout: number;
}

export interface ConfigAnswer {
  vcpus: number;
  memory_mb: number;
  disk: { device: string; size_gb: number | null };
  boot_order: string[];
  cloud_init_user: string | null;
  ssh_keys: { type: string; fingerprint: string; comment: string }[];
}

export interface BandwidthAnswer {
  month: string;
  in_bytes: number;
  out_bytes: number;
  traffic_tb: number | null;
  limit_bytes: number | null;
  over_limit: boolean;
}

export interface GraphPoint {
  t: number;
  cpu: number | null;
  mem: number | null;
  netin: number | null;
  netout: number | null;
  diskread: number | null;
  diskwrite: number | null;
}

export interface GuestAnswer {
  os: { id: string | null; name: string | null; version: string | null; kernel: string | null };
  interfaces: {
    name: string;
    mac: string | null;
    addresses: { address: string; prefix: number; family: string }[];
  }[];
}

export interface ConsoleAnswer {
  ticket: string;
  websocket_url: string;
  port: number;
  expires_at: string;
}

/** The console ticket's life (PVE's VNC tickets are good for a short while and once). */
export const CONSOLE_TTL_MS = 60_000;

/** The step of rrddata points when a list has a single point: PVE's month resolution (12 hours). */
const MONTH_STEP_S = 43_200;

/** The provider's errors as the API answers them (a 502 naming nothing of the cluster). */
export async function fromProvider<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof GuestAgentNotRunning) throw guestAgentNotRunning();
    if (error instanceof ProviderError) throw providerFailed();
    throw error;
  }
}

/** The read routes of instances: the rows with what the cluster says of them now. */
export class InstancesService {
  constructor(
    private readonly clock: Clock,
    private readonly instances: InstancesRepository,
    private readonly access: InstanceAccess,
    private readonly providers: ProviderHolder,
    private readonly templates: OsTemplates,
  ) {}

  /** The nodes each organization's active instances were on at its last listing (a hint, in memory). */
  private readonly nodesOfOrg = new Map<number, readonly string[]>();

  /**
   * The organization's instances with their live status: one list call per node the instances
   * are on (never one per instance), in parallel — and, for the nodes its last listing met, while
   * the rows are read; a node not met before is listed once the rows name it.
   */
  async list(
    orgId: number,
    status: InstanceStatus | undefined,
  ): Promise<{ items: InstanceView[]; total: number }> {
    const provider = this.providers.current();
    const lists = new Map<string, Promise<VmListEntry[]>>();
    const listNode = (node: string): void => {
      if (provider !== null && !lists.has(node)) {
        const p = provider.listVms(node);
        p.catch(() => undefined);
        lists.set(node, p);
      }
    };
    for (const node of this.nodesOfOrg.get(orgId) ?? []) listNode(node);
    const rows = await this.instances.listOfOrg(orgId);
    const nodes: string[] = [];
    for (const r of rows) if (r.state === 'active' && !nodes.includes(r.node)) nodes.push(r.node);
    for (const node of nodes) listNode(node);
    this.nodesOfOrg.set(orgId, nodes);
    const answered = await fromProvider(Promise.all(nodes.map((n) => lists.get(n) ?? Promise.resolve([]))));
    const vms = new Map<string, Map<number, VmListEntry>>();
    nodes.forEach((node, i) => {
      const byVmid = new Map<number, VmListEntry>();
      for (const vm of answered[i]!) byVmid.set(vm.vmid, vm);
      vms.set(node, byVmid);
    });
    const items: InstanceView[] = [];
    for (const r of rows) {
      const view = listedView(r, r.state === 'active' ? vms.get(r.node)?.get(r.vmid) : undefined);
      if (status === undefined || view.status === status) items.push(view);
    }
    return { items, total: items.length };
  }

  async templatesOffered(): Promise<TemplateAnswer[]> {
    return (await this.templates.osTemplates())
      .filter((t) => t.pve_template_vmid !== null)
      .map((t) => ({
        id: t.id,
        slug: t.slug,
        name: t.name,
        min_memory_mb: t.min_memory_mb,
        min_disk_gb: t.min_disk_gb,
        locations: t.locations === null ? null : [...t.locations],
      }));
  }

  async get(orgId: number, uuid: string): Promise<InstanceView> {
    const instance = await this.access.read(orgId, uuid);
    return instanceView(instance, await this.liveEntry(instance));
  }

  /** The VM as status/current sees it, when the instance is active (else its state alone tells). */
  private async liveEntry(instance: Instance): Promise<VmListEntry | null> {
    if (instance.state !== 'active') return null;
    const provider = this.providers.require();
    try {
      return await provider.currentStatus(instance.node, instance.vmid);
    } catch (error) {
      if (error instanceof VmNotFound) return null;
      throw providerFailed();
    }
  }

  async status(orgId: number, uuid: string): Promise<LiveStatusAnswer> {
    const instance = await this.access.read(orgId, uuid);
    const provider = this.providers.require();
    const vm = await fromProvider(provider.currentStatus(instance.node, instance.vmid));
    return {
      status: instance.state === 'active' ? statusOf(instance, vm) : statusOf(instance, null),
      uptime_s: vm.uptime,
      cpu: vm.cpu,
      mem_bytes: vm.mem,
      netin: vm.netin,
      netout: vm.netout,
    };
  }

  async config(orgId: number, uuid: string): Promise<ConfigAnswer> {
    const instance = await this.access.read(orgId, uuid);
    const provider = this.providers.require();
    const c = await fromProvider(provider.vmConfig(instance.node, instance.vmid));
    const size = /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT])?/.exec(c.scsi0 ?? '');
    const factor: Record<string, number> = { K: 1 / 1024 ** 2, M: 1 / 1024, G: 1, T: 1024 };
    const sizeGb =
      size === null ? null : Math.round(Number(size[1]) * (factor[size[2] ?? 'G'] ?? 1) * 100) / 100;
    const order = /order=([^,]+)/.exec(c.boot ?? '');
    const keys = (c.sshkeys ?? '')
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '')
      .map(parseSshPublicKey)
      .filter((k) => typeof k !== 'string');
    return {
      vcpus: (c.cores ?? 1) * (c.sockets ?? 1),
      memory_mb: c.memory ?? instance.memory_mb,
      disk: { device: 'scsi0', size_gb: sizeGb },
      boot_order: order === null ? [] : order[1]!.split(';'),
      cloud_init_user: c.ciuser ?? null,
      ssh_keys: keys.map((k) => ({ type: k.type, fingerprint: k.fingerprint, comment: k.comment })),
    };
  }

  async ips(orgId: number, uuid: string): Promise<{ items: IpAddressView[] }> {
    return { items: ipsOf(await this.access.read(orgId, uuid)) };
  }

  /**
   * This calendar month's traffic (UTC), from the month's rrddata averages (bytes per second)
   * times each point's step; `over_limit` once the outbound bytes pass the plan's `traffic_tb`
   * (decimal terabytes: 10^12 bytes).
   */
  async bandwidth(orgId: number, uuid: string): Promise<BandwidthAnswer> {
    const instance = await this.access.read(orgId, uuid);
    const provider = this.providers.require();
    const points = await fromProvider(provider.rrdData(instance.node, instance.vmid, 'month', 'AVERAGE'));
    const now = new Date(this.clock.now());
    const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) / 1000;
    const sorted = [...points].sort((a, b) => a.time - b.time);
    let inBytes = 0;
    let outBytes = 0;
    sorted.forEach((p, i) => {
      if (p.time < monthStart) return;
      const step = i > 0 ? p.time - sorted[i - 1]!.time : (sorted[1]?.time ?? p.time + MONTH_STEP_S) - p.time;
      inBytes += (p.netin ?? 0) * step;
      outBytes += (p.netout ?? 0) * step;
    });
    const limit = instance.traffic_tb === null ? null : instance.traffic_tb * 1e12;
    return {
      month: now.toISOString().slice(0, 7),
      in_bytes: Math.round(inBytes),
      out_bytes: Math.round(outBytes),
      traffic_tb: instance.traffic_tb,
      limit_bytes: limit,
      over_limit: limit !== null && outBytes > limit,
    };
  }

  async graphs(
    orgId: number,
    uuid: string,
    timeframe: string,
  ): Promise<{ timeframe: RrdTimeframe; points: GraphPoint[] }> {
    if (!(TIMEFRAMES as readonly string[]).includes(timeframe))
      throw invalidField(['query', 'timeframe'], `must be one of ${TIMEFRAMES.join(', ')}`, timeframe);
    const frame = timeframe as RrdTimeframe;
    const instance = await this.access.read(orgId, uuid);
    const provider = this.providers.require();
    const points = await fromProvider(provider.rrdData(instance.node, instance.vmid, frame, 'AVERAGE'));
    return {
      timeframe: frame,
      points: points.map((p) => ({
        t: p.time,
        cpu: p.cpu,
        mem: p.mem,
        netin: p.netin,
        netout: p.netout,
        diskread: p.diskread,
        diskwrite: p.diskwrite,
      })),
    };
  }

  async guest(orgId: number, uuid: string): Promise<GuestAnswer> {
    const instance = await this.access.read(orgId, uuid);
    if (instance.state !== 'active' && instance.state !== 'rescue') throw guestAgentNotRunning();
    const info = await fromProvider(this.providers.require().guestInfo(instance.node, instance.vmid));
    return {
      os: { ...info.os },
      interfaces: info.interfaces.map((i) => ({
        name: i.name,
        mac: i.mac,
        addresses: i.addresses.map((a) => ({ ...a })),
      })),
    };
  }

  /** A one-time VNC ticket and the websocket URL that takes it; never logged. */
  async console(orgId: number, uuid: string): Promise<ConsoleAnswer> {
    const instance = await this.access.read(orgId, uuid);
    const provider = this.providers.require();
    const ticket = await fromProvider(provider.openConsole(instance.node, instance.vmid));
    return {
      ticket: ticket.ticket,
      websocket_url: provider.consoleUrl(instance.node, instance.vmid, ticket),
      port: ticket.port,
      expires_at: new Date(this.clock.now() + CONSOLE_TTL_MS).toISOString(),
    };
  }

  async rescueMedia(
    orgId: number,
    uuid: string,
  ): Promise<{ items: { iso_volid: string; size_bytes: number }[] }> {
    const instance = await this.access.read(orgId, uuid);
    const isos = await fromProvider(this.providers.require().listIsos(instance.node));
    return { items: isos.map((i) => ({ iso_volid: i.volid, size_bytes: i.size })) };
  }
}
