/** The services module's public surface: the registry and the interface product modules implement. */
export {
  createServicesModule,
  type ServiceDirectory,
  type ServiceLifecycle,
  type ServicesModule,
} from './services-module.ts';
export type { ServiceActor, ServiceTagLookup } from './services-service.ts';
export {
  ProvisioningFailed,
  type ProvisionedService,
  type ServiceProvisioner,
  type ServiceSummary,
} from './service-provisioner.ts';
