import type { Principal } from '../../../kernel/auth/principal.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CustomDomainsService } from '../custom-domains/custom-domains-service.ts';
import type { GameproxyContext, GameproxyModuleDeps } from '../gameproxy-context.ts';
import { addressTaken, routeLimitReached, routeNotFound } from '../gameproxy-errors.ts';
import { routesChanged } from '../gameproxy-events.ts';
import type { Route, RouteMode, RouteRow } from '../gameproxy-tables.ts';
import { GameRoutesRepository, type RouteChanges, type RouteOwner } from './game-routes-repository.ts';
import { suggestNames, type RandomSource } from './name-suggester.ts';
import { RouteAccess, userIdOf } from './route-access.ts';
import { checkFavicon, statusCacheTtl, text } from './route-fields.ts';
import { UpstreamResolver } from './route-upstream.ts';
import { routeView, type RouteView } from './route-view.ts';
import { checkSubdomain, normalSubdomain, SUBDOMAIN_RULE, type SubdomainProblem } from './subdomain-check.ts';
import { systemLookup, type HostLookup } from './upstream-check.ts';

export interface AvailabilityView {
  subdomain: string;
  base_domain: string;
  available: boolean;
  reason: Exclude<SubdomainProblem, null> | 'taken' | null;
}

export interface NameSuggestionsView {
  base_domain: string;
  suggestions: string[];
}

export interface PolicyView {
  base_domains: string[];
  max_routes: number;
  allow_custom_domains: boolean;
  allow_proxy_protocol: boolean;
  status_cache_ttl_seconds: { default: number; min: number; max: number };
}

export interface RouteCreate {
  subdomain: string;
  base_domain?: string | null;
  display_name?: string | null;
  description?: string | null;
  mode?: RouteMode;
  upstream_service_id?: number | null;
  upstream_host?: string | null;
  upstream_port?: number | null;
  location_id?: number | null;
  org_id?: number | null;
  online_motd?: string | null;
  offline_motd?: string | null;
  favicon?: string | null;
  version_name?: string | null;
  status_cache_ttl_seconds?: number | null;
  proxy_protocol?: boolean;
  real_ip?: boolean | null;
}

export interface RouteUpdate {
  display_name?: string | null;
  description?: string | null;
  online_motd?: string | null;
  offline_motd?: string | null;
  favicon?: string | null;
  version_name?: string | null;
  status_cache_ttl_seconds?: number | null;
  clear_favicon?: boolean;
  clear_online_motd?: boolean;
  clear_offline_motd?: boolean;
}

/** What the service takes besides its context: how names resolve and where randomness comes from. */
export interface GameRoutesOptions {
  readonly lookup?: HostLookup;
  readonly random?: RandomSource;
}

/** Routes: availability, name suggestions, the effective policy, and the routes themselves. */
export class GameRoutesService {
  private readonly repo: GameRoutesRepository;
  private readonly access: RouteAccess;
  private readonly upstreams: UpstreamResolver;
  private readonly random: RandomSource;

  constructor(
    private readonly ctx: GameproxyContext,
    deps: GameproxyModuleDeps,
    private readonly domains: CustomDomainsService,
    options: GameRoutesOptions = {},
  ) {
    this.repo = new GameRoutesRepository(ctx.db);
    this.access = new RouteAccess(this.repo, deps.orgs);
    this.upstreams = new UpstreamResolver(
      deps.services,
      this.access,
      options.lookup ?? systemLookup,
      ctx.settings.allowPrivateUpstreams,
    );
    this.random = options.random ?? Math.random;
  }

  /** An organization's routes as live products: they stop answering when the organization goes. */
  async orgProducts(orgId: number): Promise<{ type: string; id: number; name: string; ends: string }[]> {
    return (await this.repo.listOf({ orgId })).map((r) => ({
      type: 'game_route',
      id: r.id,
      name: `${r.subdomain}.${r.base_domain}`,
      ends: 'stops answering',
    }));
  }

  /** The caller's route: theirs, or an organization's they are a member of; else routeNotFound (404). */
  ownedRoute(caller: Principal, routeId: number): Promise<Route> {
    return this.access.route(caller, routeId, 'read');
  }

  /**
   * The policy routes are made under. Deployment-wide for now (organizations have no settings of
   * their own yet); `org_id` is checked for membership so the answer can become per organization.
   */
  async policy(caller: Principal, orgId: number | undefined): Promise<PolicyView> {
    if (orgId !== undefined) await this.access.requireOrg(caller, orgId, 'read');
    const s = this.ctx.settings;
    return {
      base_domains: [...s.baseDomains],
      max_routes: s.maxRoutes,
      allow_custom_domains: s.allowCustomDomains,
      allow_proxy_protocol: s.allowProxyProtocol,
      status_cache_ttl_seconds: { ...s.statusCacheTtl },
    };
  }

  /** Whether `<subdomain>.<base_domain>` can be taken now, read from the primary database. */
  async availability(
    caller: Principal,
    orgId: number | undefined,
    subdomainInput: string,
    baseDomainInput: string | null | undefined,
  ): Promise<AvailabilityView> {
    if (orgId !== undefined) await this.access.requireOrg(caller, orgId, 'read');
    const baseDomain = this.baseDomain(baseDomainInput);
    const subdomain = normalSubdomain(subdomainInput);
    const problem = checkSubdomain(subdomain);
    const reason = problem ?? ((await this.repo.exists(subdomain, baseDomain)) ? 'taken' : null);
    return { subdomain, base_domain: baseDomain, available: reason === null, reason };
  }

  /** `count` readable names free under the base domain when answered. */
  async nameSuggestions(
    caller: Principal,
    orgId: number | undefined,
    count: number,
    baseDomainInput: string | null | undefined,
  ): Promise<NameSuggestionsView> {
    if (orgId !== undefined) await this.access.requireOrg(caller, orgId, 'read');
    const baseDomain = this.baseDomain(baseDomainInput);
    const suggestions = await suggestNames(count, this.random, async (names) => {
      const taken = await this.repo.taken(names, baseDomain);
      return new Set(names.filter((n) => !taken.has(n)));
    });
    return { base_domain: baseDomain, suggestions };
  }

  /** The account's own routes, or (orgId) the organization's, oldest first. */
  async list(caller: Principal, orgId: number | undefined): Promise<RouteView[]> {
    if (orgId === undefined)
      return this.views(await this.repo.listOf({ userId: userIdOf(caller), orgId: null }));
    await this.access.requireOrg(caller, orgId, 'read');
    return this.views(await this.repo.listOf({ orgId }));
  }

  async create(caller: Principal, body: RouteCreate): Promise<RouteView> {
    const userId = userIdOf(caller);
    const orgId = body.org_id ?? null;
    if (orgId !== null) await this.access.requireOrg(caller, orgId, 'write');
    const mode = body.mode ?? 'proxy';
    const proxyProtocol = body.proxy_protocol ?? false;
    if (proxyProtocol && !this.ctx.settings.allowProxyProtocol)
      throw invalidField(['body', 'proxy_protocol'], 'PROXY protocol is not offered here', true);
    const fields = {
      subdomain: this.subdomain(body.subdomain),
      base_domain: this.baseDomain(body.base_domain, ['body', 'base_domain']),
      status_cache_ttl_seconds: statusCacheTtl(
        body.status_cache_ttl_seconds,
        this.ctx.settings.statusCacheTtl,
        ['body', 'status_cache_ttl_seconds'],
      ),
      favicon: nullable(body.favicon, (f) => checkFavicon(f, ['body', 'favicon'])),
    };
    // Last, as it may wait on DNS: the upstream.
    const upstream = await this.upstreams.resolve(caller, orgId, body);
    if (mode === 'proxy' && upstream.serviceId === null && upstream.host === null)
      throw invalidField(
        ['body', 'upstream_host'],
        'A proxy route needs upstream_service_id or upstream_host',
        null,
      );
    const now = new Date(this.ctx.clock.now());
    const route = await this.insert(orgId === null ? { userId, orgId: null } : { orgId }, {
      ...fields,
      user_id: userId,
      org_id: orgId,
      display_name: text(body.display_name),
      description: text(body.description),
      mode,
      upstream_service_id: upstream.serviceId,
      upstream_host: upstream.host,
      upstream_port: upstream.port,
      location_id: body.location_id ?? null,
      online_motd: motd(body.online_motd),
      offline_motd: motd(body.offline_motd),
      version_name: text(body.version_name),
      proxy_protocol: proxyProtocol,
      real_ip: body.real_ip ?? false,
      created_at: now,
      updated_at: now,
    });
    return (await this.views([route]))[0]!;
  }

  /** Inserts a route within its owner's limit, announced once committed; a taken address is 409. */
  private insert(owner: RouteOwner, row: Omit<RouteRow, 'id'>): Promise<Route> {
    return this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      // One creation at a time per owner, so the limit holds when two arrive together.
      await repo.lockRoutesOf(owner);
      const max = this.ctx.settings.maxRoutes;
      if ((await repo.countOf(owner)) >= max) throw routeLimitReached(max);
      const inserted = await repo.insert(row);
      if (inserted === null) throw addressTaken();
      uow.emit(routesChanged, { routeIds: [inserted.id] });
      return inserted;
    });
  }

  async update(caller: Principal, routeId: number, body: RouteUpdate): Promise<RouteView> {
    await this.access.route(caller, routeId, 'write');
    const changes: RouteChanges = { updated_at: new Date(this.ctx.clock.now()) };
    if (body.display_name !== undefined) changes.display_name = text(body.display_name);
    if (body.description !== undefined) changes.description = text(body.description);
    if (body.version_name !== undefined) changes.version_name = text(body.version_name);
    if (body.status_cache_ttl_seconds !== undefined)
      changes.status_cache_ttl_seconds = statusCacheTtl(
        body.status_cache_ttl_seconds,
        this.ctx.settings.statusCacheTtl,
        ['body', 'status_cache_ttl_seconds'],
      );
    const favicon = cleared(body.favicon, body.clear_favicon, 'favicon');
    if (favicon !== undefined)
      changes.favicon = nullable(favicon, (f) => checkFavicon(f, ['body', 'favicon']));
    const online = cleared(body.online_motd, body.clear_online_motd, 'online_motd');
    if (online !== undefined) changes.online_motd = motd(online);
    const offline = cleared(body.offline_motd, body.clear_offline_motd, 'offline_motd');
    if (offline !== undefined) changes.offline_motd = motd(offline);
    const route = await this.ctx.transaction(async (uow) => {
      const row = await this.repo.withTx(uow.trx).update(routeId, changes);
      if (row === null) throw routeNotFound();
      uow.emit(routesChanged, { routeIds: [routeId] });
      return row;
    });
    return (await this.views([route]))[0]!;
  }

  /** Deletes the route (and its custom domain); its address is free at once. Answers the route deleted. */
  async delete(caller: Principal, routeId: number): Promise<Route> {
    const route = await this.access.route(caller, routeId, 'write');
    await this.ctx.transaction(async (uow) => {
      if (!(await this.repo.withTx(uow.trx).delete(routeId))) throw routeNotFound();
      uow.emit(routesChanged, { routeIds: [routeId] });
    });
    return route;
  }

  private async views(routes: readonly Route[]): Promise<RouteView[]> {
    const domains = await this.domains.viewsOf(routes.map((r) => r.id));
    return routes.map((r) => routeView(r, domains.get(r.id) ?? null));
  }

  private subdomain(input: string): string {
    const subdomain = normalSubdomain(input);
    const problem = checkSubdomain(subdomain);
    if (problem === 'reserved')
      throw invalidField(['body', 'subdomain'], `"${subdomain}" is reserved`, input);
    if (problem === 'invalid') throw invalidField(['body', 'subdomain'], SUBDOMAIN_RULE, input);
    return subdomain;
  }

  /** One of the policy's base domains (default the first); else 422 naming `loc`. */
  private baseDomain(
    input: string | null | undefined,
    loc: readonly string[] = ['body', 'base_domain'],
  ): string {
    const offered = this.ctx.settings.baseDomains;
    const domain = (input ?? offered[0] ?? '').trim().toLowerCase().replace(/\.$/, '');
    if (!offered.includes(domain))
      throw invalidField(loc, `Unknown base domain; offered: ${offered.join(', ')}`, input ?? null);
    return domain;
  }
}

const nullable = <T>(value: T | null | undefined, check: (v: T) => T): T | null =>
  value === null || value === undefined ? null : check(value);

/** A MOTD as stored: as written (leading spaces centre it in the list), null when empty. */
const motd = (value: string | null | undefined): string | null =>
  value === null || value === undefined || value === '' ? null : value;

/** A field's new value given with its clear_ flag: null when cleared, undefined when untouched. */
function cleared<T>(
  value: T | null | undefined,
  clear: boolean | undefined,
  field: string,
): T | null | undefined {
  if (clear !== true) return value;
  if (value !== undefined && value !== null)
    throw invalidField(['body', `clear_${field}`], `Give ${field} or clear_${field}, not both`, true);
  return null;
}
