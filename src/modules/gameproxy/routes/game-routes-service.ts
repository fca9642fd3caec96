import type { Principal } from '../../../kernel/auth/principal.ts';
import type { CustomDomainsService } from '../custom-domains/custom-domains-service.ts';
import { routeNotFound } from '../gameproxy-errors.ts';
import type { GameproxyContext, GameproxyModuleDeps } from '../gameproxy-context.ts';
import type { Route } from '../gameproxy-tables.ts';
import { RouteLookupRepository } from './route-lookup-repository.ts';

/** Routes: availability, name suggestions, the effective policy, and the routes themselves. */
export class GameRoutesService {
  constructor(
    private readonly ctx: GameproxyContext,
    private readonly deps: GameproxyModuleDeps,
    private readonly domains: CustomDomainsService,
  ) {
    void this.ctx;
    void this.deps;
    void this.domains;
  }

  /**
   * The caller's route: one the caller made, or one of an organization the caller is a member of.
   * Another's, or none, is routeNotFound (404).
   */
  async ownedRoute(caller: Principal, routeId: number): Promise<Route> {
    const route = await new RouteLookupRepository(this.ctx.db).find(routeId);
    const userId = caller.userId;
    if (route === null || userId === undefined) throw routeNotFound();
    if (
      route.org_id === null
        ? route.user_id === userId
        : (await this.deps.orgs.roleOf(route.org_id, userId)) !== null
    )
      return route;
    throw routeNotFound();
  }
}
