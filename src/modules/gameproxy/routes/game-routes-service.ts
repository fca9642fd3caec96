import type { Principal } from '../../../kernel/auth/principal.ts';
import type { CustomDomainsService } from '../custom-domains/custom-domains-service.ts';
import { routeNotFound } from '../gameproxy-errors.ts';
import type { GameproxyContext, GameproxyModuleDeps } from '../gameproxy-context.ts';
import type { Route } from '../gameproxy-tables.ts';

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

  /** The caller's route (TODO): another's or none is routeNotFound (404). */
  ownedRoute(caller: Principal, routeId: number): Promise<Route> {
    void caller;
    void routeId;
    return Promise.reject(routeNotFound());
  }
}
