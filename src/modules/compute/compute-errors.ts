import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the compute module, with its stable code. */
export const instanceNotFound = defineError('compute.instance_not_found', 404, 'Instance not found');
export const snapshotNotFound = defineError('compute.snapshot_not_found', 404, 'Snapshot not found');
export const backupNotFound = defineError('compute.backup_not_found', 404, 'Backup not found');
export const templateNotFound = defineError('compute.template_not_found', 404, 'OS template not found');
export const instanceBusy = defineError(
  'compute.instance_busy',
  409,
  (state: string) => `Instance is ${state}`,
);
export const instanceSuspended = defineError('compute.instance_suspended', 409, 'Instance is suspended');
export const powerTransition = defineError(
  'compute.power_transition',
  409,
  (action: string, status: string) => `Cannot ${action} an instance that is ${status}`,
);
export const guestAgentNotRunning = defineError(
  'compute.guest_agent_not_running',
  409,
  'Guest agent is not running',
);
export const snapshotExists = defineError(
  'compute.snapshot_exists',
  409,
  'A snapshot with this name exists already',
);
export const backupNotRestorable = defineError(
  'compute.backup_not_restorable',
  409,
  'Only a completed backup can be restored',
);
export const backupRunning = defineError(
  'compute.backup_running',
  409,
  'A backup of this instance is running',
);
export const notInRescue = defineError('compute.not_in_rescue', 409, 'Instance is not in rescue mode');
export const alreadyInRescue = defineError('compute.in_rescue', 409, 'Instance is in rescue mode already');
export const snapshotLimit = defineError(
  'compute.snapshot_limit',
  403,
  (max: number) => `The plan allows ${max} snapshots`,
);
export const backupLimit = defineError(
  'compute.backup_limit',
  403,
  (max: number) => `The plan allows ${max} backups`,
);
export const computeUnavailable = defineError(
  'compute.not_configured',
  503,
  'Cloud compute is not configured on this platform',
);
export const providerFailed = defineError(
  'compute.provider_failed',
  502,
  'The hypervisor cluster did not answer as expected',
);
