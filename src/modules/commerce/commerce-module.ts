import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { commerceContext } from './commerce-context.ts';
import { CommerceListsRepository } from './commerce-lists-repository.ts';
import { registerCommerceListRoutes } from './commerce-lists-routes.ts';

/**
 * The Commerce API of an organization (base /api/v1/orgs/{org_slug}/commerce): for now its five
 * lists and the merchant profile's door. Every route is behind the Commerce gate (keys module):
 * an organization key with the route's scope, or an owner's or admin's token.
 */
export function createCommerceModule(runtime: Runtime): PlatformModule {
  const ctx = commerceContext(runtime);
  const lists = new CommerceListsRepository(ctx.db);
  return {
    name: 'commerce',
    prefix: '/orgs',
    routes: (app) => registerCommerceListRoutes(app, lists),
  };
}
