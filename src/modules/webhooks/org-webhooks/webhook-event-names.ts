/**
 * The event names of organization webhooks (docs/webhooks.md, "Event names"): the names emitted (by
 * the modules that own them), the names that may be subscribed to but are never sent, `*` for every
 * event, and any name of the Commerce API's `commerce.` family.
 */
export const SENT_EVENTS = [
  'customer.created',
  'service.ordered',
  'order.created',
  'service.suspended',
  'service.unsuspended',
  'invoice.created',
  'invoice.paid',
  'invoice.refunded',
  'payout.created',
  // Cloud compute (docs/compute.md, "Events").
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

export const NEVER_SENT_EVENTS = [
  'customer.updated',
  'service.created',
  'service.cancelled',
  'invoice.overdue',
  'payout.completed',
] as const;

const KNOWN: ReadonlySet<string> = new Set<string>([...SENT_EVENTS, ...NEVER_SENT_EVENTS, '*']);
const COMMERCE_NAME = /^commerce\.[a-z0-9_]+(\.[a-z0-9_]+)*$/;

export function isSubscribable(name: string): boolean {
  return KNOWN.has(name) || COMMERCE_NAME.test(name);
}

/** Whether a webhook subscribed to `events` hears `name`. */
export function subscribed(events: readonly string[], name: string): boolean {
  return events.includes('*') || events.includes(name);
}
