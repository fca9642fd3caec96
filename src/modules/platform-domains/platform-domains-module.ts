import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { Certificates } from '../certificates/index.ts';
import type { ManagedRecords, ManagedZones } from '../dns/index.ts';
import { platformDomainsContext } from './platform-domains-context.ts';
import { registerPlatformDomainRoutes } from './platform-domains-routes.ts';
import { PlatformDomainsService } from './platform-domains-service.ts';

/**
 * Platform domains (base /api/v1/client/platform-domains): names under the platform's own
 * suffixes, each with a zone of its own on this DNS engine and a wildcard certificate.
 */
export function createPlatformDomainsModule(
  runtime: Runtime,
  deps: {
    readonly zones: ManagedZones;
    readonly records: ManagedRecords;
    readonly certificates: Certificates;
    readonly nameservers: readonly string[];
  },
): PlatformModule {
  const ctx = platformDomainsContext(runtime);
  const service = new PlatformDomainsService(ctx, deps);
  return {
    name: 'platform-domains',
    prefix: '/client/platform-domains',
    routes: (app) => registerPlatformDomainRoutes(app, service),
    start: () => service.ensureSuffixZones(),
  };
}
