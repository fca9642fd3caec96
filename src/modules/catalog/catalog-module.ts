import { moduleContext } from '../../kernel/module/module-context.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { LocationsDirectory } from '../locations/index.ts';
import { seedShippedCatalog } from './catalog-files/shipped-catalog.ts';
import type { CatalogOffers } from './catalog-offers.ts';
import type { CatalogTables } from './catalog-tables.ts';
import { ContainerCatalog } from './containers/container-catalog.ts';
import { registerContainerCatalogRoutes } from './containers/container-catalog-routes.ts';
import { registerProductRoutes } from './products/products-routes.ts';
import { ProductsRepository } from './products/products-repository.ts';
import { ProductsService } from './products/products-service.ts';

/**
 * The catalogue (issue 18): products with prices, options and per-location availability
 * (`/products/`, `/locations/availability`, no token), and the container catalogue
 * (`/client/containers/catalog`). Filled from catalog/ at the first start; changed by
 * `npm run catalog -- import <file>` (src/apps/catalog-cli.ts).
 */
export interface CatalogModule extends PlatformModule {
  /** What the services registry reads when a service is ordered. */
  readonly offers: CatalogOffers;
}

export function createCatalogModule(
  runtime: Runtime,
  deps: { readonly locations: LocationsDirectory },
): CatalogModule {
  const ctx = moduleContext<CatalogTables>(runtime, 'catalog');
  const products = new ProductsService(new ProductsRepository(ctx.db), deps.locations);
  const containers = new ContainerCatalog(ctx.db);
  return {
    name: 'catalog',
    offers: products,
    prefix: '',
    routes: (app) => {
      registerProductRoutes(app, products);
      registerContainerCatalogRoutes(app, containers);
    },
    start: async () => {
      for (const s of await seedShippedCatalog(ctx.db))
        ctx.log.info({ kind: s.kind, written: s.written }, 'catalogue seeded from catalog/');
    },
  };
}
