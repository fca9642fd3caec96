import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { ServiceDirectory, ServiceLifecycle } from '../services/index.ts';
import { registerOrgServiceRoutes } from './org-services/org-services-routes.ts';

export interface ResellersModuleDeps {
  /** The services registry's lookup: which services the organization holds. */
  readonly services: ServiceDirectory;
  /** The registry's suspensions (status, events, audit, the organization's webhooks). */
  readonly lifecycle: ServiceLifecycle;
}

/**
 * A reseller's routes (base /api/v1/orgs/{org_slug}/...) over the services its organization holds
 * for its customers: suspend and lift a suspension. It keeps no table: the services registry does
 * the work.
 */
export function createResellersModule(deps: ResellersModuleDeps): PlatformModule {
  return {
    name: 'resellers',
    prefix: '/orgs',
    routes: (app) => registerOrgServiceRoutes(app, deps.services, deps.lifecycle),
  };
}
