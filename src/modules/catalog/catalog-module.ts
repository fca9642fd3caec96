import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { LocationsDirectory } from '../locations/index.ts';
import { catalogContext } from './catalog-context.ts';
import { seedShippedCatalog } from './catalog-files/shipped-catalog.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { CatalogOffers, OsTemplates, ProductProvisioner } from './catalog-interfaces.ts';
import { ContainerCatalogRepository } from './containers/container-catalog-repository.ts';
import { ContainerCatalogService } from './containers/container-catalog-service.ts';
import { registerContainerCatalogRoutes } from './containers/container-catalog-routes.ts';
import { registerProductRoutes } from './products/products-routes.ts';
import { ProductsRepository } from './products/products-repository.ts';
import { ProductsService } from './products/products-service.ts';

/**
 * The catalogue: products with prices, options and per-location availability
 * (`/products/`, `/locations/availability`, no token), and the container catalogue
 * (`/client/containers/catalog`). Filled from catalog/ at the first start; changed by
 * `npm run catalog -- import <file>` (src/apps/catalog-cli.ts).
 */
export interface CatalogModule extends PlatformModule {
  /** What the services registry reads when a service is ordered. */
  readonly offers: CatalogOffers;
  /** Cloud compute's OS templates. */
  readonly osTemplates: OsTemplates;
}

export function createCatalogModule(
  runtime: Runtime,
  deps: {
    readonly locations: LocationsDirectory;
    /** The modules that provision services (filled by the product modules, made after this one). */
    readonly provisioners: Registry<ProductProvisioner>;
  },
): CatalogModule {
  const ctx = catalogContext(runtime);
  const products = new ProductsService(new ProductsRepository(ctx.db), deps.locations, deps.provisioners);
  const containers = new ContainerCatalogService(new ContainerCatalogRepository(ctx.db));
  return {
    name: 'catalog',
    offers: products,
    osTemplates: products,
    prefix: '',
    routes: (app) => {
      registerProductRoutes(app, products);
      registerContainerCatalogRoutes(app, containers);
    },
    start: async () => {
      for (const s of await seedShippedCatalog(ctx))
        ctx.log.info({ kind: s.kind, written: s.written }, 'catalogue seeded from catalog/');
    },
  };
}
