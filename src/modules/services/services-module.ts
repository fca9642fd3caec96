import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import { idempotentReplies } from '../../kernel/http/idempotency.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CatalogOffers } from '../catalog/index.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import { servicesContext } from './services-context.ts';
import type {
  CouponRedeemer,
  ServiceInsights,
  CustomerServices,
  Invoicer,
  ServiceDirectory,
  ServiceBilling,
  ServiceFulfilment,
  ServiceLifecycle,
  ServiceProvisioner,
  ServiceTagLookup,
  StorefrontCustomers,
} from './services-interfaces.ts';
import { ServiceInsightsRepository } from './services-repository.ts';
import { registerServiceRoutes } from './services-routes.ts';
import { ServicesService } from './services-service.ts';

export interface ServicesModule extends PlatformModule {
  readonly lifecycle: ServiceLifecycle;
  readonly directory: ServiceDirectory;
  /** Billing provisions the services of a paid invoice through it. */
  readonly fulfilment: ServiceFulfilment;
  /** Billing's daily run: due dates, renewals and dunning. */
  readonly billing: ServiceBilling;
  /** The organizations' portals: what their storefront customers order and hold. */
  readonly customerServices: CustomerServices;
  /** The staff console's insights: orders and active services by day. */
  readonly insights: ServiceInsights;
}

export interface ServicesModuleDeps {
  readonly catalog: CatalogOffers;
  readonly orgs: OrgDirectory;
  /** Product modules add their provisioner here, one per catalogue `module_name`. */
  readonly provisioners: Registry<ServiceProvisioner>;
  /** The tags module adds the answer to the list's `tag` filter here. */
  readonly serviceTags: Registry<ServiceTagLookup>;
  /** The billing module adds itself here: priced orders are invoiced through it. */
  readonly invoicers: Registry<Invoicer>;
  /** Identity's storefront realm: whether an order's `customer_id` is the organization's customer. */
  readonly customers: StorefrontCustomers;
  /** The staff console adds its coupons here: a customer's order redeems its `coupon_code` through it. */
  readonly coupons: Registry<CouponRedeemer>;
}

/**
 * The services registry (base /api/v1/services): every hosted product an account or
 * organization holds, ordered from the catalogue and made by its product module's provisioner.
 */
export function createServicesModule(runtime: Runtime, deps: ServicesModuleDeps): ServicesModule {
  const ctx = servicesContext(runtime);
  const service = new ServicesService(
    ctx,
    deps.catalog,
    deps.orgs,
    deps.provisioners,
    deps.serviceTags,
    deps.invoicers,
    deps.customers,
    deps.coupons,
  );
  const replies = idempotentReplies(runtime);
  return {
    name: 'services',
    prefix: '/services',
    directory: service,
    lifecycle: service,
    fulfilment: service,
    billing: service,
    customerServices: service,
    insights: new ServiceInsightsRepository(ctx.db),
    routes: (app) => registerServiceRoutes(app, service, replies),
  };
}
