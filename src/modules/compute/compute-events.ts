/**
 * The outbox events of cloud compute (organization webhooks, docs/webhooks.md "Event names"), each
 * recorded in the transaction of the change it announces with `{instance_uuid, ...}`.
 */
export const VPS_EVENTS = [
  'vps.created',
  'vps.installed',
  'vps.install_failed',
  'vps.suspended',
  'vps.unsuspended',
  'vps.terminated',
  'vps.power',
  'vps.snapshot.created',
  'vps.snapshot.deleted',
  'vps.snapshot.rolled_back',
  'vps.backup.created',
  'vps.backup.completed',
  'vps.backup.failed',
  'vps.backup.deleted',
  'vps.backup.restored',
  'vps.rebuilt',
  'vps.hostname.changed',
  'vps.cloud_init.regenerated',
  'vps.ssh_keys.updated',
  'vps.password.reset',
  'vps.rescue.entered',
  'vps.rescue.exited',
] as const;

export type VpsEventName = (typeof VPS_EVENTS)[number];
