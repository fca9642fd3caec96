/**
 * A vps service through the services registry's lifecycle (docs/compute.md, "Provisioning"):
 * order → an instance row `installing`, then in the background the VM cloned from its OS
 * template, configured (cloud-init), grown to the plan and started → `active`; suspend → the VM
 * stopped and the instance locked; unsuspend → started again; terminate → the VM destroyed, its
 * backups deleted (PVE keeps archives after a VM is gone) and its address given back.
 */
import { randomUUID } from 'node:crypto';
import type { CatalogOffers, OsTemplate, OsTemplates } from '../../catalog/index.ts';
import {
  ProvisioningFailed,
  type ProvisionedService,
  type ServiceProvisioner,
} from '../../services/index.ts';
import { BackupsRepository } from '../backups/backups-repository.ts';
import type { ComputeContext } from '../compute-context.ts';
import type { BackgroundWork } from '../instances/background-work.ts';
import type { Instance, InstancesRepository } from '../instances/instances-repository.ts';
import type { ProviderHolder } from '../instances/provider-holder.ts';
import { ProviderError, type ComputeProvider } from '../provider/compute-provider.ts';
import { ipconfigOf, nextFreeIpv4, poolFor } from './ip-allocation.ts';
import { planSpec } from './plan-spec.ts';
import { chooseNode, installVm } from './vm-install.ts';

/** The catalogue `module_name` of VPS products. */
export const VPS = 'vps';

export class InstanceLifecycle {
  /** Serialises the choice of vmids and addresses within this process (nextid answers the same id until a clone takes it). */
  private reserving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: ComputeContext,
    private readonly instances: InstancesRepository,
    private readonly providers: ProviderHolder,
    private readonly catalog: CatalogOffers,
    private readonly templates: OsTemplates,
    private readonly work: BackgroundWork,
  ) {}

  provisioner(): ServiceProvisioner {
    return {
      module: VPS,
      unavailableReason: () => (this.providers.current() === null ? 'not_configured' : null),
      provision: (s) => this.provision(s),
      suspend: (s) => this.suspend(s),
      unsuspend: (s) => this.unsuspend(s),
      terminate: (s) => this.terminate(s),
    };
  }

  async templateOf(config: Readonly<Record<string, unknown>>): Promise<OsTemplate | null> {
    const wanted = config.os_template;
    const all = await this.templates.osTemplates();
    if (typeof wanted === 'number') return all.find((t) => t.id === wanted) ?? null;
    if (typeof wanted === 'string') return all.find((t) => t.slug === wanted) ?? null;
    return null;
  }

  async provision(service: ProvisionedService): Promise<void> {
    if ((await this.instances.byService(service.id)) !== null) return;
    const provider = this.providers.current();
    if (provider === null) throw new ProvisioningFailed('not_configured');
    const template = await this.templateOf(service.config);
    if (template === null) throw new ProvisioningFailed('unknown_os_template');
    const hostname =
      typeof service.config.hostname === 'string' && service.config.hostname !== ''
        ? service.config.hostname
        : `vps-${service.id}`;
    const offer = await this.catalog.offer(service.productId, 0);
    const plan = planSpec(offer?.product.metadata ?? null);
    const placed = await chooseNode(provider, template).catch((error: unknown) => {
      throw new ProvisioningFailed(`provider_unavailable: ${(error as Error).message}`);
    });
    if (placed === null) throw new ProvisioningFailed('no_node_holds_template');
    const instance = await this.reserve(provider, async (vmid, inUse) => {
      const pool = poolFor(this.ctx.settings.ipv4Pools, service.locationCode);
      const lease = pool === null ? null : nextFreeIpv4(pool, inUse);
      const now = new Date(this.ctx.clock.now());
      const row = {
        uuid: randomUUID(),
        service_id: service.id,
        user_id: service.userId,
        org_id: service.orgId,
        name: hostname,
        hostname,
        state: 'installing' as const,
        failure: null,
        node: placed.node,
        vmid,
        template_id: template.id,
        template_name: template.name,
        vcpus: plan.vcpus,
        memory_mb: plan.memoryMb,
        disk_gb: plan.diskGb,
        traffic_tb: plan.trafficTb,
        max_snapshots: plan.maxSnapshots,
        max_backups: plan.maxBackups,
        location: service.locationCode,
        ipv4: lease?.address ?? null,
        ipv4_prefix: lease?.prefix ?? null,
        ipv4_gateway: lease?.gateway ?? null,
        ssh_keys: '',
        created_at: now,
        updated_at: now,
      };
      await this.ctx.transaction(async (uow) => {
        await this.instances.withTx(uow.trx).insert(row);
        await uow.record({
          orgId: service.orgId,
          name: 'vps.created',
          data: { instance_uuid: row.uuid, service_id: service.id, node: row.node, vmid },
        });
      });
      return (await this.instances.byUuid(row.uuid))!;
    });
    this.work.run(`install ${instance.uuid}`, () => this.install(provider, instance, placed.templateVmid));
  }

  /** Picks the vmid (nextid, past any an unfinished order holds) and the address under one lock. */
  private async reserve<T>(
    provider: ComputeProvider,
    take: (vmid: number, ipv4InUse: ReadonlySet<string>) => Promise<T>,
  ): Promise<T> {
    const turn = this.reserving.then(async () => {
      let vmid = await provider.nextVmid();
      while (await this.instances.vmidTaken(vmid)) vmid++;
      return take(vmid, await this.instances.ipv4InUse());
    });
    this.reserving = turn.catch(() => undefined);
    return turn;
  }

  private async install(provider: ComputeProvider, instance: Instance, templateVmid: number): Promise<void> {
    try {
      await installVm(
        provider,
        {
          node: instance.node,
          vmid: instance.vmid,
          templateVmid,
          hostname: instance.hostname,
          vcpus: instance.vcpus,
          memoryMb: instance.memory_mb,
          diskGb: instance.disk_gb,
          ciUser: this.ctx.settings.ciUser,
          sshKeys: instance.ssh_keys,
          ipconfig0: ipconfigOf(
            instance.ipv4 === null
              ? null
              : { address: instance.ipv4, prefix: instance.ipv4_prefix!, gateway: instance.ipv4_gateway! },
          ),
          description: `instance ${instance.uuid}`,
        },
        this.ctx.settings.taskTimeoutMs,
      );
      await this.settle(instance, 'active', null, 'vps.installed');
    } catch (error) {
      const reason = error instanceof ProviderError ? error.message : 'install failed';
      await this.settle(instance, 'failed', reason, 'vps.install_failed');
      throw error;
    }
  }

  /** Ends an install: the state moves only if the instance is still installing (not suspended or terminated since). */
  private async settle(
    instance: Instance,
    to: 'active' | 'failed',
    failure: string | null,
    event: 'vps.installed' | 'vps.install_failed',
  ): Promise<void> {
    await this.ctx.transaction(async (uow) => {
      const moved = await this.instances
        .withTx(uow.trx)
        .moveState(instance.uuid, to, new Date(this.ctx.clock.now()), ['installing'], failure);
      if (moved)
        await uow.record({
          orgId: instance.org_id,
          name: event,
          data: { instance_uuid: instance.uuid, ...(failure !== null ? { reason: failure } : {}) },
        });
    });
  }

  async suspend(service: ProvisionedService): Promise<void> {
    const instance = await this.instances.byService(service.id);
    if (instance === null || instance.state === 'terminated' || instance.state === 'suspended') return;
    const provider = this.providers.require();
    const now = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async (uow) => {
      await this.instances.withTx(uow.trx).moveState(instance.uuid, 'suspended', now);
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.suspended',
        data: { instance_uuid: instance.uuid },
      });
    });
    const status = await provider.currentStatus(instance.node, instance.vmid).catch(() => null);
    if (status !== null && status.status === 'running')
      await provider.waitTask(
        await provider.power(instance.node, instance.vmid, 'stop'),
        this.ctx.settings.taskTimeoutMs,
      );
  }

  async unsuspend(service: ProvisionedService): Promise<void> {
    const instance = await this.instances.byService(service.id);
    if (instance === null || instance.state !== 'suspended') return;
    const provider = this.providers.require();
    const now = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async (uow) => {
      await this.instances.withTx(uow.trx).moveState(instance.uuid, 'active', now, ['suspended']);
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.unsuspended',
        data: { instance_uuid: instance.uuid },
      });
    });
    const status = await provider.currentStatus(instance.node, instance.vmid).catch(() => null);
    if (status !== null && status.status !== 'running')
      await provider.waitTask(
        await provider.power(instance.node, instance.vmid, 'start'),
        this.ctx.settings.taskTimeoutMs,
      );
  }

  async terminate(service: ProvisionedService): Promise<void> {
    const instance = await this.instances.byService(service.id);
    if (instance === null || instance.state === 'terminated') return;
    const provider = this.providers.require();
    const timeout = this.ctx.settings.taskTimeoutMs;
    const status = await provider.currentStatus(instance.node, instance.vmid).catch(() => null);
    if (status !== null) {
      if (status.status === 'running')
        await provider.waitTask(await provider.power(instance.node, instance.vmid, 'stop'), timeout);
      await provider.waitTask(await provider.destroyVm(instance.node, instance.vmid), timeout);
    }
    // PVE keeps a destroyed VM's archives: every backup of it goes too.
    for (const volume of await provider.listBackups(instance.node, instance.vmid))
      await waitMaybe(provider, await provider.deleteBackup(instance.node, volume.volid), timeout);
    const now = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async (uow) => {
      await new BackupsRepository(uow.trx).deleteAllOf(instance.uuid);
      const repo = this.instances.withTx(uow.trx);
      await repo.moveState(instance.uuid, 'terminated', now);
      await repo.update(instance.uuid, { ipv4: null, ipv4_prefix: null, ipv4_gateway: null });
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.terminated',
        data: { instance_uuid: instance.uuid },
      });
    });
  }
}

async function waitMaybe(
  provider: ComputeProvider,
  task: Awaited<ReturnType<ComputeProvider['deleteBackup']>>,
  timeoutMs: number,
): Promise<void> {
  if (task !== null) await provider.waitTask(task, timeoutMs);
}
