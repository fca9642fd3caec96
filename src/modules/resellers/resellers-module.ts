import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { IdempotentReplies } from '../../kernel/http/idempotency.ts';
import type { CustomerBilling } from '../billing/index.ts';
import type { RealmSignIn } from '../identity/index.ts';
import type { ServiceDirectory, ServiceLifecycle } from '../services/index.ts';
import { registerOrgInvoiceRoutes } from './org-invoices/org-invoices-routes.ts';
import { registerOrgServiceRoutes } from './org-services/org-services-routes.ts';
import { registerPortalBillingRoutes } from './portal-billing/portal-billing-routes.ts';

export interface ResellersModuleDeps {
  /** The services registry's lookup: which services the organization holds. */
  readonly services: ServiceDirectory;
  /** The registry's suspensions (status, events, audit, the organization's webhooks). */
  readonly lifecycle: ServiceLifecycle;
  /** Billing of the organization's customers: their invoices, payments, refunds and ledgers. */
  readonly billing: CustomerBilling;
  /** Customers by email, for the invoice list's search. */
  readonly realms: RealmSignIn;
  /** Kept replies of the portal's payments (Idempotency-Key). */
  readonly replies: IdempotentReplies;
}

/**
 * A reseller's routes (base /api/v1/orgs/{org_slug}/...) over the services its organization holds
 * for its customers (suspend and lift a suspension), its customers' invoices (list, refund, the
 * hybrid mode's products), and its customers' billing portal. It keeps no table: the services
 * registry and billing do the work.
 */
export function createResellersModule(deps: ResellersModuleDeps): PlatformModule {
  return {
    name: 'resellers',
    prefix: '/orgs',
    routes: (app) => {
      registerOrgServiceRoutes(app, deps.services, deps.lifecycle);
      registerOrgInvoiceRoutes(app, deps.billing, deps.realms);
      registerPortalBillingRoutes(app, deps.billing, deps.replies);
    },
  };
}
