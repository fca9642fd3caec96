import type { Principal } from '../../../kernel/auth/principal.ts';
import type { GameproxyContext, GameproxyModuleDeps } from '../gameproxy-context.ts';
import type { CustomDomainRow, Route } from '../gameproxy-tables.ts';
import type { JsonView } from '../../../kernel/http/view-schemas.ts';

/** A route's custom domain as the API shows it (the seed: the same object in route lists). */
export type CustomDomainView = JsonView<
  Pick<CustomDomainRow, 'domain' | 'fqdn' | 'status' | 'checked_at' | 'include_in_list' | 'last_error'>
> & {
  /** The route's own address, which the fqdn's CNAME points at. */
  cname_target: string;
};

/** A caller's route by id (another's, or none: routeNotFound, a 404), as the routes' rules decide. */
export type OwnedRouteLookup = (caller: Principal, routeId: number) => Promise<Route>;

/** Custom domains of routes: CNAME verification, managed records, background re-checks. */
export class CustomDomainsService {
  constructor(
    private readonly ctx: GameproxyContext,
    private readonly deps: GameproxyModuleDeps,
    private readonly ownedRoute: OwnedRouteLookup,
  ) {}

  /** The custom domains of these routes, by route id (a route without one is absent). */
  viewsOf(routeIds: readonly number[]): Promise<Map<number, CustomDomainView>> {
    void routeIds;
    return Promise.resolve(new Map());
  }

  start(): Promise<void> {
    void this.ctx;
    void this.deps;
    void this.ownedRoute;
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  checkDue(): Promise<number> {
    return Promise.resolve(0);
  }
}
