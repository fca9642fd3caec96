import type { ComputeContext } from '../compute-context.ts';
import { backupLimit, backupNotFound, backupNotRestorable, backupRunning } from '../compute-errors.ts';
import type { BackgroundWork } from '../instances/background-work.ts';
import { instanceBudgetKey, type InstanceAccess } from '../instances/instance-access.ts';
import { instanceView, type InstanceView } from '../instances/instance-view.ts';
import type { Instance, InstancesRepository } from '../instances/instances-repository.ts';
import { fromProvider } from '../instances/instances-service.ts';
import type { ProviderHolder } from '../instances/provider-holder.ts';
import type { BackupCompress, BackupMode, ComputeProvider } from '../provider/compute-provider.ts';
import { vpsBackupBudget, vpsBackupRestoreBudget } from './backups-budget.ts';
import { backupView, type BackupView } from './backup-view.ts';
import type { Backup, BackupsRepository } from './backups-repository.ts';

/** A backup still running after this long is failed (its task lost, or the storage stuck). */
export const BACKUP_STUCK_MS = 6 * 3600 * 1000;

/**
 * Backups: vzdump archives on the cluster's backup storage, made by a task the module waits for
 * in the background (running → completed with its archive and size, or failed); at most the
 * plan's `max_backups` (default 2, running ones included). A restore replaces the VM's disk with
 * the archive: the instance is `restoring`, then stopped.
 */
export class BackupsService {
  constructor(
    private readonly ctx: ComputeContext,
    private readonly access: InstanceAccess,
    private readonly instances: InstancesRepository,
    private readonly backups: BackupsRepository,
    private readonly providers: ProviderHolder,
    private readonly work: BackgroundWork,
  ) {}

  async list(orgId: number, uuid: string): Promise<{ items: BackupView[] }> {
    const instance = await this.access.read(orgId, uuid);
    return { items: (await this.current(instance)).map(backupView) };
  }

  /** The instance's backups, those running past BACKUP_STUCK_MS marked failed first. */
  private async current(instance: Instance): Promise<Backup[]> {
    const now = this.ctx.clock.now();
    const rows = await this.backups.listOf(instance.uuid);
    for (const b of rows)
      if (b.status === 'running' && now - b.created_at.getTime() >= BACKUP_STUCK_MS)
        await this.fail(instance, b, 'stuck');
    return this.backups.listOf(instance.uuid);
  }

  private async fail(instance: Instance, backup: Backup, reason: string): Promise<void> {
    await this.ctx.transaction(async (uow) => {
      const moved = await this.backups
        .withTx(uow.trx)
        .finishRunning(backup.id, { status: 'failed', finished_at: new Date(this.ctx.clock.now()) });
      if (moved)
        await uow.record({
          orgId: instance.org_id,
          name: 'vps.backup.failed',
          data: { instance_uuid: instance.uuid, backup_id: backup.id, reason },
        });
    });
  }

  async create(
    orgId: number,
    uuid: string,
    body: { note?: string; mode?: BackupMode; compress?: BackupCompress },
  ): Promise<BackupView> {
    const instance = await this.access.change(orgId, uuid);
    const existing = await this.current(instance);
    if (existing.filter((b) => b.status !== 'failed').length >= instance.max_backups)
      throw backupLimit(instance.max_backups);
    if (existing.some((b) => b.status === 'running')) throw backupRunning();
    const provider = this.providers.require();
    await this.ctx.budgets.charge(vpsBackupBudget, instanceBudgetKey(uuid));
    const mode = body.mode ?? 'snapshot';
    const compress = body.compress ?? 'zstd';
    const note = body.note ?? '';
    const task = await fromProvider(provider.backup(instance.node, instance.vmid, mode, compress, note));
    const backup = await this.ctx.transaction(async (uow) => {
      const row = await this.backups.withTx(uow.trx).insert({
        instance_uuid: uuid,
        node: instance.node,
        volid: null,
        upid: task.upid,
        note,
        mode,
        compress,
        size_bytes: null,
        status: 'running',
        created_at: new Date(this.ctx.clock.now()),
        finished_at: null,
      });
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.backup.created',
        data: { instance_uuid: uuid, backup_id: row.id, mode, compress },
      });
      return row;
    });
    this.work.run(`backup ${backup.id}`, () => this.complete(provider, instance, backup));
    return backupView(backup);
  }

  /** Waits for the vzdump task, then finds its archive (the one no other backup names). */
  private async complete(provider: ComputeProvider, instance: Instance, backup: Backup): Promise<void> {
    try {
      await provider.waitTask({ node: backup.node, upid: backup.upid! }, this.ctx.settings.taskTimeoutMs);
      const known = new Set(
        (await this.backups.listOf(instance.uuid)).map((b) => b.volid).filter((v) => v !== null),
      );
      const volumes = (await provider.listBackups(instance.node, instance.vmid))
        .filter((v) => !known.has(v.volid))
        .sort((a, b) => b.ctime - a.ctime);
      const archive = volumes[0];
      if (archive === undefined) throw new Error('the backup task left no archive');
      await this.ctx.transaction(async (uow) => {
        const moved = await this.backups.withTx(uow.trx).finishRunning(backup.id, {
          status: 'completed',
          volid: archive.volid,
          size_bytes: archive.size,
          finished_at: new Date(this.ctx.clock.now()),
        });
        if (moved)
          await uow.record({
            orgId: instance.org_id,
            name: 'vps.backup.completed',
            data: { instance_uuid: instance.uuid, backup_id: backup.id, size_bytes: archive.size },
          });
      });
    } catch (error) {
      await this.fail(instance, backup, 'task_failed');
      throw error;
    }
  }

  private async find(instance: Instance, id: number): Promise<Backup> {
    const backup = await this.backups.find(instance.uuid, id);
    if (backup === null) throw backupNotFound();
    return backup;
  }

  async delete(orgId: number, uuid: string, id: number): Promise<{ id: number; deleted: true }> {
    const instance = await this.access.change(orgId, uuid);
    const backup = await this.find(instance, id);
    if (backup.status === 'running') throw backupRunning();
    if (backup.volid !== null) {
      const provider = this.providers.require();
      const task = await fromProvider(provider.deleteBackup(backup.node, backup.volid));
      if (task !== null) await fromProvider(provider.waitTask(task, this.ctx.settings.taskTimeoutMs));
    }
    await this.ctx.transaction(async (uow) => {
      await this.backups.withTx(uow.trx).delete(id);
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.backup.deleted',
        data: { instance_uuid: uuid, backup_id: id },
      });
    });
    return { id, deleted: true };
  }

  async restore(orgId: number, uuid: string, id: number): Promise<InstanceView> {
    const instance = await this.access.change(orgId, uuid);
    const backup = await this.find(instance, id);
    if (backup.status !== 'completed' || backup.volid === null) throw backupNotRestorable();
    const provider = this.providers.require();
    await this.ctx.budgets.charge(vpsBackupRestoreBudget, instanceBudgetKey(uuid));
    const now = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async (uow) => {
      await this.instances.withTx(uow.trx).moveState(uuid, 'restoring', now);
    });
    this.work.run(`restore ${uuid}`, () => this.restoreVm(provider, instance, backup));
    return instanceView({ ...instance, state: 'restoring' }, null);
  }

  private async restoreVm(provider: ComputeProvider, instance: Instance, backup: Backup): Promise<void> {
    const timeout = this.ctx.settings.taskTimeoutMs;
    let failure: string | null = null;
    try {
      const vm = await provider.currentStatus(instance.node, instance.vmid);
      if (vm.status === 'running')
        await provider.waitTask(await provider.power(instance.node, instance.vmid, 'stop'), timeout);
      await provider.waitTask(
        await provider.restoreBackup(instance.node, instance.vmid, backup.volid!),
        timeout,
      );
    } catch (error) {
      failure = error instanceof Error ? error.message : 'restore failed';
    }
    await this.ctx.transaction(async (uow) => {
      const moved = await this.instances
        .withTx(uow.trx)
        .moveState(
          instance.uuid,
          failure === null ? 'active' : 'failed',
          new Date(this.ctx.clock.now()),
          ['restoring'],
          failure,
        );
      if (moved && failure === null)
        await uow.record({
          orgId: instance.org_id,
          name: 'vps.backup.restored',
          data: { instance_uuid: instance.uuid, backup_id: backup.id },
        });
    });
  }
}
