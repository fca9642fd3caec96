import type { ComputeContext } from '../compute-context.ts';
import { powerTransition } from '../compute-errors.ts';
import type { BackgroundWork } from '../instances/background-work.ts';
import { instanceBudgetKey, type InstanceAccess } from '../instances/instance-access.ts';
import { fromProvider } from '../instances/instances-service.ts';
import type { ProviderHolder } from '../instances/provider-holder.ts';
import type { ComputeProvider, PowerAction, StartedTask } from '../provider/compute-provider.ts';
import { vpsPowerBudget } from './power-budget.ts';

export const POWER_ACTIONS: readonly PowerAction[] = [
  'start',
  'stop',
  'shutdown',
  'reboot',
  'reset',
  'suspend',
  'resume',
];

/** A power task as the API answers it. */
export interface PowerTaskAnswer {
  task: { id: string; action: PowerAction; status: 'running' | 'completed' | 'failed' };
}

type Live = 'running' | 'paused' | 'stopped';

/** From which live states each action makes sense (resume only when paused, start only when stopped, ...). */
const ALLOWED: Readonly<Record<PowerAction, readonly Live[]>> = {
  start: ['stopped'],
  stop: ['running', 'paused'],
  shutdown: ['running'],
  reboot: ['running'],
  reset: ['running'],
  suspend: ['running'],
  resume: ['paused'],
};

/** The live state from status/current: PVE's `status` says running while paused; QMP's status tells. */
export function liveOf(vm: { status: string; qmpstatus: string | null }): Live {
  if (vm.status !== 'running') return 'stopped';
  return vm.qmpstatus === 'paused' || vm.qmpstatus === 'suspended' ? 'paused' : 'running';
}

/** The answer's status of a task just started. */
export async function taskAnswerStatus(
  provider: ComputeProvider,
  task: StartedTask,
): Promise<'running' | 'completed' | 'failed'> {
  const s = await provider.taskStatus(task.node, task.upid).catch(() => null);
  if (s === null || s.status === 'running') return 'running';
  return s.exitstatus === 'OK' || (s.exitstatus ?? '').startsWith('WARNINGS') ? 'completed' : 'failed';
}

export class PowerService {
  constructor(
    private readonly ctx: ComputeContext,
    private readonly access: InstanceAccess,
    private readonly providers: ProviderHolder,
    private readonly work: BackgroundWork,
  ) {}

  async power(orgId: number, uuid: string, action: PowerAction): Promise<PowerTaskAnswer> {
    const instance = await this.access.change(orgId, uuid);
    const provider = this.providers.require();
    const vm = await fromProvider(provider.currentStatus(instance.node, instance.vmid));
    const live = liveOf(vm);
    if (!ALLOWED[action].includes(live)) throw powerTransition(action, live);
    await this.ctx.budgets.charge(vpsPowerBudget, instanceBudgetKey(uuid));
    const task = await fromProvider(provider.power(instance.node, instance.vmid, action));
    await this.ctx.transaction(async (uow) => {
      await uow.record({
        orgId: instance.org_id,
        name: 'vps.power',
        data: { instance_uuid: uuid, action, task_id: task.upid },
      });
    });
    const status = await taskAnswerStatus(provider, task);
    if (status === 'running')
      this.work.run(`power ${action} ${uuid}`, async () => {
        await provider.waitTask(task, this.ctx.settings.taskTimeoutMs);
      });
    return { task: { id: task.upid, action, status } };
  }
}
