import type { CatalogOffers } from '../../catalog/index.ts';
import type { ProvisionedService, ServiceProvisioner } from '../../services/index.ts';
import { SMTP_RELAY } from './relay-access.ts';
import type { RelaysRepository } from './relays-repository.ts';

/** Sending limits when the plan names none (docs/mail.md, "Limits"). */
export const DEFAULT_LIMITS = { per_minute: 60, per_day: 10_000, max_recipients: 50 } as const;

function limit(metadata: Record<string, unknown> | null, name: keyof typeof DEFAULT_LIMITS): number {
  const v = metadata?.[name];
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : DEFAULT_LIMITS[name];
}

/**
 * The SMTP relay as a service: ordering it makes the relay with its plan's limits (the product's
 * metadata in the catalogue); suspending stops its keys from sending (401 is kept for a wrong
 * key; a suspended relay answers 403); terminating ends the keys and withdraws the DNS records of
 * its sending domains. Events and the message history stay: late reports still find their message.
 */
export function smtpRelayProvisioner(
  relays: RelaysRepository,
  catalog: CatalogOffers,
  onTerminate: (serviceId: number) => Promise<void>,
): ServiceProvisioner {
  return {
    module: SMTP_RELAY,
    async provision(service: ProvisionedService) {
      const offer = await catalog.offer(service.productId, 0);
      const metadata = offer?.product.metadata ?? null;
      await relays.upsert({
        service_id: service.id,
        user_id: service.userId,
        org_id: service.orgId,
        per_minute: limit(metadata, 'per_minute'),
        per_day: limit(metadata, 'per_day'),
        max_recipients: limit(metadata, 'max_recipients'),
        status: 'active',
      });
    },
    async suspend(service) {
      await relays.setStatus(service.id, 'suspended');
    },
    async unsuspend(service) {
      await relays.setStatus(service.id, 'active');
    },
    async terminate(service) {
      await relays.setStatus(service.id, 'terminated');
      await onTerminate(service.id);
    },
  };
}
