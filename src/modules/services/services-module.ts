import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CatalogOffers } from '../catalog/index.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import { servicesContext } from './services-context.ts';
import type {
  ServiceDirectory,
  ServiceLifecycle,
  ServiceProvisioner,
  ServiceTagLookup,
} from './services-interfaces.ts';
import { registerServiceRoutes } from './services-routes.ts';
import { ServicesService } from './services-service.ts';

export interface ServicesModule extends PlatformModule {
  readonly lifecycle: ServiceLifecycle;
  readonly directory: ServiceDirectory;
  /** The tags module answers the list's `tag` filter. */
  useTags(tags: ServiceTagLookup): void;
  /** Product modules plug in here, one provisioner per catalogue `module_name`. */
  addProvisioner(provisioner: ServiceProvisioner): void;
}

/**
 * The services registry (base /api/v1/services): every hosted product an account or
 * organization holds, ordered from the catalogue and made by its product module's provisioner.
 */
export function createServicesModule(
  runtime: Runtime,
  deps: { readonly catalog: CatalogOffers; readonly orgs: OrgDirectory },
): ServicesModule {
  const ctx = servicesContext(runtime);
  const service = new ServicesService(ctx, deps.catalog, deps.orgs);
  return {
    name: 'services',
    prefix: '/services',
    directory: service,
    lifecycle: service,
    addProvisioner: (p) => service.addProvisioner(p),
    useTags: (tags) => service.useTags(tags),
    routes: (app) => registerServiceRoutes(app, service),
  };
}
