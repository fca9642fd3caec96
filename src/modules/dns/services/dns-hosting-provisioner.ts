import type { ProvisionedService, ServiceProvisioner } from '../../services/index.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { DNS_HOSTING } from '../zones/zones-service.ts';

/**
 * DNS hosting as a service: nothing to make when it is ordered — its zones are
 * created later with its `service_id` (POST /dns/zones), at most `max_zones` of them. Suspending
 * leaves the zones answering (a hosting platform does not break a customer's DNS for a billing
 * state; this is the product's choice). Terminating leaves the zones too, counted against no
 * service any more: deleting a customer's zones is theirs to do.
 */
export function dnsHostingProvisioner(zones: ZonesRepository): ServiceProvisioner {
  return {
    module: DNS_HOSTING,
    provision: async () => {},
    suspend: async () => {},
    unsuspend: async () => {},
    async terminate(service: ProvisionedService) {
      await zones.detachService(service.id);
    },
  };
}
