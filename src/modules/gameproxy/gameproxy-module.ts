import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { registerBoostRoutes } from './boosts/boosts-routes.ts';
import { BoostsService } from './boosts/boosts-service.ts';
import { CustomDomainsService } from './custom-domains/custom-domains-service.ts';
import { registerCustomDomainRoutes } from './custom-domains/custom-domains-routes.ts';
import { gameproxyContext, type GameproxyModuleDeps } from './gameproxy-context.ts';
import { registerGameRouteRoutes } from './routes/game-routes-routes.ts';
import { GameRoutesService } from './routes/game-routes-service.ts';

export type { GameproxyModuleDeps } from './gameproxy-context.ts';

export interface GameproxyModule extends PlatformModule {
  /** Re-checks the custom domains whose check is due (the background timer calls it; tests too). */
  checkDueDomains(): Promise<number>;
}

/**
 * Game proxy (base /api/v1/gameproxy): join addresses for Minecraft Java servers served by the
 * game edge (src/edge, run by ROLE=edge) — routes, their custom domains, and partner boosts
 * (/api/v1/orgs/{org_slug}/partners/{partner}/boosts).
 */
export function createGameproxyModule(runtime: Runtime, deps: GameproxyModuleDeps): GameproxyModule {
  const ctx = gameproxyContext(runtime);
  // Custom domains find a caller's route through the routes' own rules (bound late: each needs the other).
  const domains: CustomDomainsService = new CustomDomainsService(ctx, deps, (caller, routeId) =>
    routes.ownedRoute(caller, routeId),
  );
  const routes = new GameRoutesService(ctx, deps, domains);
  deps.liveProducts.add((orgId) => routes.orgProducts(orgId));
  const boosts = new BoostsService(ctx, deps);
  return {
    name: 'gameproxy',
    prefix: '',
    routes: (app) => {
      registerGameRouteRoutes(app, routes);
      registerCustomDomainRoutes(app, domains);
      registerBoostRoutes(app, boosts);
    },
    start: () => domains.start(),
    stop: () => domains.stop(),
    checkDueDomains: () => domains.checkDue(),
  };
}
