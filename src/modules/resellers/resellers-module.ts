import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import { idempotentReplies } from '../../kernel/http/idempotency.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CustomerServices, ServiceDirectory, ServiceLifecycle } from '../services/index.ts';
import { registerOrgServiceRoutes } from './org-services/org-services-routes.ts';
import { registerPortalServiceRoutes } from './portal-services/portal-services-routes.ts';
import { PortalServicesService } from './portal-services/portal-services-service.ts';
import { resellersContext } from './resellers-context.ts';

export interface ResellersModuleDeps {
  /** The services registry's lookup: which services the organization holds. */
  readonly services: ServiceDirectory;
  /** The registry's suspensions (status, events, audit, the organization's webhooks). */
  readonly lifecycle: ServiceLifecycle;
  /** The registry's services held for storefront customers, for the organization's portal. */
  readonly customerServices: CustomerServices;
}

/**
 * A reseller's routes (base /api/v1/orgs/{org_slug}/...) over the services its organization holds
 * for its customers: members suspend and lift a suspension; customers order and read theirs in
 * the portal. It keeps no table: the services registry does the work.
 */
export function createResellersModule(runtime: Runtime, deps: ResellersModuleDeps): PlatformModule {
  const ctx = resellersContext(runtime);
  const portal = new PortalServicesService(deps.customerServices, ctx.clock);
  const replies = idempotentReplies(runtime);
  return {
    name: 'resellers',
    prefix: '/orgs',
    routes: (app) => {
      registerOrgServiceRoutes(app, deps.services, deps.lifecycle);
      registerPortalServiceRoutes(app, portal, replies);
    },
  };
}
