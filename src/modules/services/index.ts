/** The services module's public surface: the registry and the interfaces other modules use. */
export { createServicesModule, type ServicesModule, type ServicesModuleDeps } from './services-module.ts';
export {
  ProvisioningFailed,
  type CouponOrder,
  type CouponRedeemer,
  type CustomerOrder,
  type CustomerServices,
  type CustomerServicesQuery,
  type CustomerServiceView,
  type Invoicer,
  type OrderedService,
  type PortalCustomer,
  type StorefrontCustomers,
  type OrderInvoiceLine,
  type OrderToInvoice,
  type RenewalDiscount,
  type ServiceFulfilment,
  type ServiceInsights,
  type ServiceBilling,
  type BilledService,
  type HourlyService,
  type ProvisionedService,
  type ServiceActor,
  type ServiceDirectory,
  type ServiceLifecycle,
  type ServiceProvisioner,
  type ServiceSummary,
  type ServiceTagLookup,
} from './services-interfaces.ts';
/** The order's budget and schemas, for the organizations' portal routes (the resellers module). */
export { freeOrderBudget } from './services-budgets.ts';
export { CustomerOrderBody, OrderResponse, ServiceResponse, ServiceStatusWord } from './services-schemas.ts';
