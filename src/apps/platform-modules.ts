import type { AccessTokens } from '../kernel/auth/access-token.ts';
import type { AuthLayer } from '../kernel/auth/auth-layer.ts';
import type { PlatformModule } from '../kernel/module/platform-module.ts';
import { Registry } from '../kernel/module/registry.ts';
import type { Runtime } from '../kernel/runtime/runtime.ts';
import { createPaymentProvider, createPaymentProviders } from '../kernel/payments/create-payment-provider.ts';
import { createBillingModule } from '../modules/billing/index.ts';
import { createResellersModule } from '../modules/resellers/index.ts';
import { createCatalogModule } from '../modules/catalog/index.ts';
import {
  createServicesModule,
  type CouponRedeemer,
  type Invoicer,
  type ServiceProvisioner,
  type ServiceTagLookup,
} from '../modules/services/index.ts';
import { createTagsModule } from '../modules/tags/index.ts';
import { createCertificatesModule } from '../modules/certificates/index.ts';
import { createCommerceModule } from '../modules/commerce/index.ts';
import { createDnsModule, dnsConfig, type NameClaimSource } from '../modules/dns/index.ts';
import { createLoadBalancingModule } from '../modules/load-balancing/index.ts';
import { createIdentityModule } from '../modules/identity/index.ts';
import { createKeysModule } from '../modules/keys/index.ts';
import { createMailModule } from '../modules/mail/index.ts';
import { createLocationsModule } from '../modules/locations/index.ts';
import { createOrgsModule, type LiveProductSource } from '../modules/orgs/index.ts';
import { createObjectStorageModule } from '../modules/object-storage/index.ts';
import { createPlatformDomainsModule } from '../modules/platform-domains/index.ts';
import { createGameproxyModule } from '../modules/gameproxy/index.ts';
import { createWebhooksModule } from '../modules/webhooks/index.ts';
import { createGameServersModule } from '../modules/game-servers/index.ts';
import { createComputeModule } from '../modules/compute/index.ts';
import { createStaffModule } from '../modules/staff/index.ts';
import { createAnalyticsModule } from '../modules/analytics/index.ts';

export { CONFIG_SECTIONS } from './config-sections.ts';

/**
 * Every platform module, in the order they register and start; each gets what it uses of the
 * modules before it through their public interfaces, and what modules made after it offer it
 * through registries passed to both factories.
 */
export function platformModules(
  runtime: Runtime,
  kernel: { readonly tokens: AccessTokens; readonly auth: AuthLayer },
): PlatformModule[] {
  // Where a module that comes later offers what one made before it uses.
  const provisioners = new Registry<ServiceProvisioner>('service provisioners');
  const liveProducts = new Registry<LiveProductSource>('live products');
  const serviceTags = new Registry<ServiceTagLookup>('service tags');
  const nameClaims = new Registry<NameClaimSource>('name claims');
  const invoicers = new Registry<Invoicer>('invoicers');
  const couponRedeemers = new Registry<CouponRedeemer>('coupon redeemers');
  const identity = createIdentityModule(runtime, kernel);
  const orgs = createOrgsModule(runtime, {
    auth: kernel.auth,
    accounts: identity.accounts,
    realms: identity.realms,
    liveProducts,
  });
  const locations = createLocationsModule(runtime);
  const catalog = createCatalogModule(runtime, { locations: locations.locations, provisioners });
  const services = createServicesModule(runtime, {
    catalog: catalog.offers,
    orgs: orgs.directory,
    provisioners,
    serviceTags,
    invoicers,
    customers: identity.realms,
    coupons: couponRedeemers,
  });
  const billing = createBillingModule(runtime, {
    payments: createPaymentProvider({
      stripeSecretKey: runtime.config.stripeSecretKey,
      stripeApiBaseUrl: runtime.config.stripeApiBaseUrl,
    }),
    services: services.fulfilment,
    serviceBilling: services.billing,
    accounts: identity.accounts,
    invoicers,
    orgs: orgs.directory,
  });
  const resellers = createResellersModule(runtime, {
    services: services.directory,
    lifecycle: services.lifecycle,
    customerServices: services.customerServices,
    billing: billing.customers,
    realms: identity.realms,
  });
  const dns = createDnsModule(runtime, {
    orgs: orgs.directory,
    services: services.directory,
    nameClaims,
    provisioners,
    liveProducts,
  });
  const loadBalancing = createLoadBalancingModule(runtime, {
    zones: dns.zoneAccess,
    nameClaims,
    regions: locations.regions,
  });
  const tags = createTagsModule(runtime, {
    services: services.directory,
    zones: dns.zoneHolders,
    serviceTags,
  });
  const keys = createKeysModule(runtime, {
    auth: kernel.auth,
    accounts: identity.accounts,
    orgs: orgs.directory,
  });
  const commerce = createCommerceModule(runtime, {
    auth: kernel.auth,
    orgs: orgs.directory,
    payments: createPaymentProviders({
      stripeSecretKey: runtime.config.stripeSecretKey,
      stripeApiBaseUrl: runtime.config.stripeApiBaseUrl,
    }),
    stripeWebhookSecret: runtime.config.stripeWebhookSecret,
  });
  const webhooks = createWebhooksModule(runtime, { runEngine: true });
  const certificates = createCertificatesModule(runtime, { dns: dns.managedRecords });
  const platformDomains = createPlatformDomainsModule(runtime, {
    zones: dns.managedZones,
    records: dns.managedRecords,
    certificates: certificates.certificates,
    nameservers: runtime.config.section(dnsConfig).nameservers,
  });
  const mail = createMailModule(runtime, {
    auth: kernel.auth,
    services: services.directory,
    catalog: catalog.offers,
    dns: dns.managedRecords,
    engine: webhooks.engine,
    provisioners,
  });
  const objectStorage = createObjectStorageModule(runtime, {
    services: services.directory,
    catalog: catalog.offers,
    locations: locations.locations,
    provisioners,
  });
  const gameproxy = createGameproxyModule(runtime, {
    services: services.directory,
    orgs: orgs.directory,
    records: dns.managedRecords,
    liveProducts,
  });
  const gameServers = createGameServersModule(runtime, { accounts: identity.accounts, provisioners });
  // The PVE adapter when PVE_URL is set, else no provider (VPS plans answer not_configured);
  // a local engine is put in place with compute.useProvider().
  const compute = createComputeModule(runtime, {
    catalog: catalog.offers,
    osTemplates: catalog.osTemplates,
    provisioners,
  });
  const staff = createStaffModule(runtime, {
    orgs: orgs.directory,
    accounts: identity.accounts,
    realms: identity.realms,
    coupons: couponRedeemers,
    insights: {
      billing: billing.insights,
      commerce: commerce.insights,
      services: services.insights,
      customers: identity.customerInsights,
    },
  });
  // Storefront analytics; it hears storefront orders among the outbox events the engine fans out.
  const analytics = createAnalyticsModule(runtime, { orgs: orgs.directory });
  webhooks.engine.addFanOut(analytics.orders);
  return [
    identity,
    orgs,
    keys,
    commerce,
    commerce.providerWebhooks,
    webhooks,
    locations,
    catalog,
    services,
    billing,
    resellers,
    tags,
    dns,
    loadBalancing,
    certificates,
    platformDomains,
    mail,
    objectStorage,
    gameproxy,
    gameServers,
    compute,
    staff,
    analytics,
  ];
}
