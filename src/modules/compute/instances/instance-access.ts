import { instanceBusy, instanceNotFound, instanceSuspended } from '../compute-errors.ts';
import type { Instance, InstancesRepository } from './instances-repository.ts';

/** The states in which no change is taken (Convoy's rule): the 409 names the state. */
const BUSY = new Set(['installing', 'rebuilding', 'restoring']);

/**
 * Finds an organization's instance for a call: another organization's (or a terminated) instance
 * is a 404. Roles are the routes' own (`org:member` reads, `org:admin` changes: owner and admin).
 */
export class InstanceAccess {
  constructor(private readonly instances: InstancesRepository) {}

  async read(orgId: number, uuid: string): Promise<Instance> {
    const instance = await this.instances.findInOrg(orgId, uuid);
    if (instance === null) throw instanceNotFound();
    return instance;
  }

  /** For a change: 409 while suspended, installing, rebuilding or restoring. */
  async change(orgId: number, uuid: string): Promise<Instance> {
    const instance = await this.read(orgId, uuid);
    assertChangeable(instance);
    return instance;
  }
}

export function assertChangeable(instance: Instance): void {
  if (instance.state === 'suspended') throw instanceSuspended();
  if (BUSY.has(instance.state)) throw instanceBusy(instance.state);
}

/** The key an instance's calls count under in its budgets (one window per instance). */
export const instanceBudgetKey = (uuid: string): string => `uuid=${uuid}`;
