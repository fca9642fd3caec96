import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import { idempotentReplies } from '../../kernel/http/idempotency.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CustomerServices, ServiceDirectory, ServiceLifecycle } from '../services/index.ts';
import { registerOrgServiceRoutes } from './org-services/org-services-routes.ts';
import { registerPortalServiceRoutes } from './portal-services/portal-services-routes.ts';
import { PortalServicesService } from './portal-services/portal-services-service.ts';
import { resellersContext } from './resellers-context.ts';
import type { CustomerBilling } from '../billing/index.ts';
import type { RealmSignIn } from '../identity/index.ts';
import { registerOrgInvoiceRoutes } from './org-invoices/org-invoices-routes.ts';
import { registerPortalBillingRoutes } from './portal-billing/portal-billing-routes.ts';

export interface ResellersModuleDeps {
  /** The services registry's lookup: which services the organization holds. */
  readonly services: ServiceDirectory;
  /** The registry's suspensions (status, events, audit, the organization's webhooks). */
  readonly lifecycle: ServiceLifecycle;
  /** The registry's services held for storefront customers, for the organization's portal. */
  readonly customerServices: CustomerServices;
  /** Billing of the organization's customers: their invoices, payments, refunds and ledgers. */
  readonly billing: CustomerBilling;
  /** Customers by email, for the invoice list's search. */
  readonly realms: RealmSignIn;
}

/**
 * A reseller's routes (base /api/v1/orgs/{org_slug}/...) over the services its organization holds
 * for its customers (suspend and lift a suspension), its customers' invoices (list, refund, the
 * hybrid mode's products), and the portal where customers order and pay. It keeps no table: the services
 * registry and billing do the work.
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
      registerOrgInvoiceRoutes(app, deps.billing, deps.realms);
      registerPortalBillingRoutes(app, deps.billing, replies);
    },
  };
}
