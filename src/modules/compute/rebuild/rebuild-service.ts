import type { OsTemplates } from '../../catalog/index.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { ComputeContext } from '../compute-context.ts';
import type { BackgroundWork } from '../instances/background-work.ts';
import { instanceBudgetKey, type InstanceAccess } from '../instances/instance-access.ts';
import { instanceView, type InstanceView } from '../instances/instance-view.ts';
import type { Instance, InstancesRepository } from '../instances/instances-repository.ts';
import type { ProviderHolder } from '../instances/provider-holder.ts';
import type { ComputeProvider } from '../provider/compute-provider.ts';
import { ipconfigOf } from '../provisioning/ip-allocation.ts';
import { installVm, templateVmidOn } from '../provisioning/vm-install.ts';
import { vpsRebuildBudget } from './rebuild-budget.ts';

/**
 * A rebuild wipes the instance: the VM is stopped and destroyed with its disk and snapshots, then
 * cloned again from the chosen template under the same vmid, configured, grown and started — its
 * address, hostname and SSH keys kept. `rebuilding` meanwhile; `failed` if a step fails.
 */
export class RebuildService {
  constructor(
    private readonly ctx: ComputeContext,
    private readonly access: InstanceAccess,
    private readonly instances: InstancesRepository,
    private readonly providers: ProviderHolder,
    private readonly templates: OsTemplates,
    private readonly work: BackgroundWork,
  ) {}

  async rebuild(orgId: number, uuid: string, templateId: number): Promise<InstanceView> {
    const instance = await this.access.change(orgId, uuid);
    const template = (await this.templates.osTemplates()).find((t) => t.id === templateId);
    const templateVmid = template === undefined ? null : templateVmidOn(template, instance.node);
    if (template === undefined || templateVmid === null)
      throw invalidField(['body', 'template_id'], 'No such OS template on this instance’s node', templateId);
    const provider = this.providers.require();
    await this.ctx.budgets.charge(vpsRebuildBudget, instanceBudgetKey(uuid));
    const now = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async (uow) => {
      const repo = this.instances.withTx(uow.trx);
      await repo.moveState(uuid, 'rebuilding', now);
      await repo.update(uuid, { template_id: template.id, template_name: template.name, updated_at: now });
    });
    const next = {
      ...instance,
      state: 'rebuilding' as const,
      template_id: template.id,
      template_name: template.name,
    };
    this.work.run(`rebuild ${uuid}`, () => this.run(provider, next, templateVmid));
    return instanceView(next, null);
  }

  private async run(provider: ComputeProvider, instance: Instance, templateVmid: number): Promise<void> {
    const timeout = this.ctx.settings.taskTimeoutMs;
    let failure: string | null = null;
    try {
      const vm = await provider.currentStatus(instance.node, instance.vmid).catch(() => null);
      if (vm !== null) {
        if (vm.status === 'running')
          await provider.waitTask(await provider.power(instance.node, instance.vmid, 'stop'), timeout);
        await provider.waitTask(await provider.destroyVm(instance.node, instance.vmid), timeout);
      }
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
        timeout,
      );
    } catch (error) {
      failure = error instanceof Error ? error.message : 'rebuild failed';
    }
    await this.ctx.transaction(async (uow) => {
      const moved = await this.instances
        .withTx(uow.trx)
        .moveState(
          instance.uuid,
          failure === null ? 'active' : 'failed',
          new Date(this.ctx.clock.now()),
          ['rebuilding'],
          failure,
        );
      if (moved && failure === null)
        await uow.record({
          orgId: instance.org_id,
          name: 'vps.rebuilt',
          data: { instance_uuid: instance.uuid, template_id: instance.template_id },
        });
    });
  }
}
