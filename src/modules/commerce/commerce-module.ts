import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { commerceContext } from './commerce-context.ts';
import { ShopEventLog } from './events/shop-event-log.ts';
import { ShopEventsRepository } from './events/shop-events-repository.ts';
import { registerShopEventRoutes } from './events/shop-events-routes.ts';
import { CommerceListsRepository } from './lists/commerce-lists-repository.ts';
import { registerCommerceListRoutes } from './lists/commerce-lists-routes.ts';
import { registerStoreRoutes } from './store/store-routes.ts';
import { StoreService } from './store/store-service.ts';

/**
 * The Commerce API of an organization (base /api/v1/orgs/{org_slug}/commerce): the shop's
 * administration (store, sales channels and publishable keys, regions, catalogue, shipping,
 * inventory, orders, events) and the lists. Every route is behind the Commerce gate (keys module):
 * an organization key with the route's scope, or an owner's or admin's token.
 */
export function createCommerceModule(runtime: Runtime): PlatformModule {
  const ctx = commerceContext(runtime);
  const lists = new CommerceListsRepository(ctx.db);
  const log = new ShopEventLog(ctx);
  const store = new StoreService(ctx, log);
  return {
    name: 'commerce',
    prefix: '/orgs',
    routes: (app) => {
      registerCommerceListRoutes(app, lists);
      registerShopEventRoutes(app, new ShopEventsRepository(ctx.db));
      registerStoreRoutes(app, store);
    },
  };
}
