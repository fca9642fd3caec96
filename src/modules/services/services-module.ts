import { moduleContext } from '../../kernel/module/module-context.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { OwnerScope } from '../../kernel/auth/owner-scope.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { CatalogOffers } from '../catalog/index.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import type { ServiceProvisioner, ServiceSummary } from './service-provisioner.ts';
import { registerServiceRoutes } from './services-routes.ts';
import { ServicesService, type ServiceActor, type ServiceTagLookup } from './services-service.ts';
import type { ServiceView } from './service-view.ts';
import type { ServicesTables } from './services-tables.ts';

/** What product modules use of the registry: a service named in their requests. */
export interface ServiceDirectory {
  /**
   * The service when the caller may use it (`write`, the default: its owner, or an owner or admin
   * of its organization) or see it (`read`: any member); else null.
   */
  summaryFor(owner: OwnerScope, serviceId: number, access?: 'read' | 'write'): Promise<ServiceSummary | null>;
}

/** Suspensions, for the staff console and resellers (no route of this module's own). */
export interface ServiceLifecycle {
  suspend(serviceId: number, reason: string, actor: ServiceActor): Promise<ServiceView>;
  unsuspend(serviceId: number, actor: ServiceActor): Promise<ServiceView>;
}

export interface ServicesModule extends PlatformModule {
  readonly lifecycle: ServiceLifecycle;
  readonly directory: ServiceDirectory;
  /** The tags module answers the list's `tag` filter. */
  useTags(tags: ServiceTagLookup): void;
  /** Product modules plug in here, one provisioner per catalogue `module_name`. */
  addProvisioner(provisioner: ServiceProvisioner): void;
}

/**
 * The services registry (issue 18, base /api/v1/services): every hosted product an account or
 * organization holds, ordered from the catalogue and made by its product module's provisioner.
 */
export function createServicesModule(
  runtime: Runtime,
  deps: { readonly catalog: CatalogOffers; readonly orgs: OrgDirectory },
): ServicesModule {
  const ctx = moduleContext<ServicesTables>(runtime, 'services');
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
