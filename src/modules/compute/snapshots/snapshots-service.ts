import type { ComputeContext } from '../compute-context.ts';
import { snapshotExists, snapshotLimit, snapshotNotFound } from '../compute-errors.ts';
import type { InstanceAccess } from '../instances/instance-access.ts';
import { fromProvider } from '../instances/instances-service.ts';
import type { ProviderHolder } from '../instances/provider-holder.ts';
import type { VmSnapshot } from '../provider/compute-provider.ts';

/** A snapshot as the API answers it (`id` is its name, PVE's `snapname`). */
export interface SnapshotAnswer {
  id: string;
  name: string;
  description: string;
  vmstate: boolean;
  parent: string | null;
  created_at: string | null;
}

function answerOf(s: VmSnapshot): SnapshotAnswer {
  return {
    id: s.name,
    name: s.name,
    description: s.description,
    vmstate: s.vmstate,
    parent: s.parent,
    created_at: s.snaptime === null ? null : new Date(s.snaptime * 1000).toISOString(),
  };
}

/**
 * Snapshots (PVE's own, on the VM's disk; with `vmstate`, RAM too): at most the plan's
 * `max_snapshots`; each change waits for its task and is announced once done.
 */
export class SnapshotsService {
  constructor(
    private readonly ctx: ComputeContext,
    private readonly access: InstanceAccess,
    private readonly providers: ProviderHolder,
  ) {}

  async list(orgId: number, uuid: string): Promise<{ items: SnapshotAnswer[] }> {
    const instance = await this.access.read(orgId, uuid);
    const provider = this.providers.require();
    const snaps = await fromProvider(provider.listSnapshots(instance.node, instance.vmid));
    const sorted = [...snaps].sort(
      (a, b) => (a.snaptime ?? 0) - (b.snaptime ?? 0) || a.name.localeCompare(b.name),
    );
    return { items: sorted.map(answerOf) };
  }

  async create(
    orgId: number,
    uuid: string,
    body: { name: string; description?: string; vmstate?: boolean },
  ): Promise<SnapshotAnswer> {
    const instance = await this.access.change(orgId, uuid);
    const provider = this.providers.require();
    const existing = await fromProvider(provider.listSnapshots(instance.node, instance.vmid));
    if (existing.some((s) => s.name === body.name)) throw snapshotExists();
    if (existing.length >= instance.max_snapshots) throw snapshotLimit(instance.max_snapshots);
    const task = await fromProvider(
      provider.createSnapshot(
        instance.node,
        instance.vmid,
        body.name,
        body.description ?? '',
        body.vmstate ?? false,
      ),
    );
    await fromProvider(provider.waitTask(task, this.ctx.settings.taskTimeoutMs));
    const made = (await fromProvider(provider.listSnapshots(instance.node, instance.vmid))).find(
      (s) => s.name === body.name,
    );
    await this.ctx.transaction(async (uow) => {
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.snapshot.created',
        data: { instance_uuid: uuid, snapshot: body.name, vmstate: body.vmstate ?? false },
      });
    });
    return answerOf(
      made ?? {
        name: body.name,
        description: body.description ?? '',
        vmstate: body.vmstate ?? false,
        parent: null,
        snaptime: Math.floor(this.ctx.clock.now() / 1000),
      },
    );
  }

  private async find(node: string, vmid: number, name: string): Promise<VmSnapshot> {
    const snaps = await fromProvider(this.providers.require().listSnapshots(node, vmid));
    const found = snaps.find((s) => s.name === name);
    if (found === undefined) throw snapshotNotFound();
    return found;
  }

  async delete(orgId: number, uuid: string, name: string): Promise<{ id: string; deleted: true }> {
    const instance = await this.access.change(orgId, uuid);
    await this.find(instance.node, instance.vmid, name);
    const provider = this.providers.require();
    const task = await fromProvider(provider.deleteSnapshot(instance.node, instance.vmid, name));
    await fromProvider(provider.waitTask(task, this.ctx.settings.taskTimeoutMs));
    await this.ctx.transaction(async (uow) => {
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.snapshot.deleted',
        data: { instance_uuid: uuid, snapshot: name },
      });
    });
    return { id: name, deleted: true };
  }

  /** Rolls back: the VM is stopped first (as PVE does); a snapshot with vmstate resumes running. */
  async rollback(orgId: number, uuid: string, name: string): Promise<SnapshotAnswer> {
    const instance = await this.access.change(orgId, uuid);
    const snapshot = await this.find(instance.node, instance.vmid, name);
    const provider = this.providers.require();
    const timeout = this.ctx.settings.taskTimeoutMs;
    const vm = await fromProvider(provider.currentStatus(instance.node, instance.vmid));
    if (vm.status === 'running')
      await fromProvider(
        provider.power(instance.node, instance.vmid, 'stop').then((t) => provider.waitTask(t, timeout)),
      );
    const task = await fromProvider(provider.rollbackSnapshot(instance.node, instance.vmid, name));
    await fromProvider(provider.waitTask(task, timeout));
    await this.ctx.transaction(async (uow) => {
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.snapshot.rolled_back',
        data: { instance_uuid: uuid, snapshot: name },
      });
    });
    return answerOf(snapshot);
  }
}
