import type { CustomDomainsService } from '../custom-domains/custom-domains-service.ts';
import type { GameproxyContext, GameproxyModuleDeps } from '../gameproxy-context.ts';
import type { GameRoutesService } from '../routes/game-routes-service.ts';

/** Partner boosts: more memory for a while for the free game server behind a route. */
export class BoostsService {
  constructor(
    private readonly ctx: GameproxyContext,
    private readonly deps: GameproxyModuleDeps,
    private readonly routes: GameRoutesService,
    private readonly domains: CustomDomainsService,
  ) {
    void this.ctx;
    void this.deps;
    void this.routes;
    void this.domains;
  }
}
