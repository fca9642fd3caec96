/** The services module's public surface: the registry and the interfaces other modules use. */
export { createServicesModule, type ServicesModule, type ServicesModuleDeps } from './services-module.ts';
export {
  ProvisioningFailed,
  type Invoicer,
  type OrderInvoiceLine,
  type OrderToInvoice,
  type ServiceFulfilment,
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
