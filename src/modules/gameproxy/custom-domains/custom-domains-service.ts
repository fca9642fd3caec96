import type { Principal } from '../../../kernel/auth/principal.ts';
import { AppError, invalidField } from '../../../kernel/errors/app-error.ts';
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { HostedZone } from '../../dns/index.ts';
import {
  customDomainExists,
  customDomainNotFound,
  customDomainsDisabled,
  customDomainTaken,
} from '../gameproxy-errors.ts';
import type { GameproxyContext, GameproxyModuleDeps } from '../gameproxy-context.ts';
import { routesChanged } from '../gameproxy-events.ts';
import type { CustomDomainRow, Route } from '../gameproxy-tables.ts';
import { resolverCnameCheck, type CnameCheck, type CnameFinding } from './cname-check.ts';
import { linkBudget, routeBudgetKey, verifyBudget } from './custom-domain-budgets.ts';
import { customDomainName } from './custom-domain-names.ts';
import { afterCheck, CHECK_LEASE_MS, CHECK_TICK_MS, CHECKS_PER_PASS } from './custom-domain-schedule.ts';
import { CustomDomainsRepository, type DomainWithRoute } from './custom-domains-repository.ts';

/** A route's custom domain as the API shows it (the seed: the same object in route lists). */
export type CustomDomainView = JsonView<
  Pick<CustomDomainRow, 'domain' | 'fqdn' | 'status' | 'checked_at' | 'include_in_list' | 'last_error'>
> & {
  /** The route's own address, which the fqdn's CNAME points at. */
  cname_target: string;
};

/** A caller's route by id (another's, or none: routeNotFound, a 404), as the routes' rules decide. */
export type OwnedRouteLookup = (caller: Principal, routeId: number) => Promise<Route>;

/** What the link request names. */
export interface LinkInput {
  readonly domain: string;
  readonly subdomain?: string | null;
  readonly include_in_list?: boolean;
}

type RouteRef = DomainWithRoute['route'];

/** The module name managed records are published under. */
const RECORD_OWNER = 'gameproxy';
const CNAME_TTL = 300;

const addressOf = (route: Pick<Route, 'subdomain' | 'base_domain'>): string =>
  `${route.subdomain}.${route.base_domain}`;

function viewOf(row: CustomDomainRow, route: Pick<Route, 'subdomain' | 'base_domain'>): CustomDomainView {
  return {
    domain: row.domain,
    fqdn: row.fqdn,
    status: row.status,
    cname_target: addressOf(route),
    checked_at: row.checked_at?.toISOString() ?? null,
    include_in_list: row.include_in_list,
    last_error: row.last_error,
  };
}

/**
 * Custom domains of routes: a name the route's holder points at the route's address by CNAME.
 * Verified when the CNAME is found (or published here, in a zone of the holder's hosted on this
 * DNS engine); re-checked in the background, and failed after three daily checks without it.
 */
export class CustomDomainsService {
  private readonly repo: CustomDomainsRepository;
  private readonly lookup: CnameCheck;
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<number> | null = null;

  constructor(
    private readonly ctx: GameproxyContext,
    private readonly deps: GameproxyModuleDeps,
    private readonly ownedRoute: OwnedRouteLookup,
  ) {
    this.repo = new CustomDomainsRepository(ctx.db);
    this.lookup = resolverCnameCheck(ctx.settings.checkResolver);
  }

  /** The custom domains of these routes, by route id (a route without one is absent). */
  async viewsOf(routeIds: readonly number[]): Promise<Map<number, CustomDomainView>> {
    const rows = await this.repo.withRoutes(routeIds);
    return new Map(rows.map(({ domain, route }) => [domain.route_id, viewOf(domain, route)]));
  }

  async get(caller: Principal, routeId: number): Promise<CustomDomainView> {
    const route = await this.ownedRoute(caller, routeId);
    const row = await this.repo.find(route.id);
    if (row === null) throw customDomainNotFound();
    return viewOf(row, route);
  }

  /**
   * Links a custom domain to the caller's route and checks it at once: published and verified in
   * a zone of the caller's hosted here, else pending until its CNAME is found.
   */
  async link(caller: Principal, routeId: number, input: LinkInput): Promise<CustomDomainView> {
    const route = await this.ownedRoute(caller, routeId);
    await this.ctx.budgets.charge(linkBudget, routeBudgetKey(route.id));
    if (!this.ctx.settings.allowCustomDomains) throw customDomainsDisabled();
    const name = customDomainName(input.domain, input.subdomain, this.ctx.settings.baseDomains);
    if ((await this.repo.find(route.id)) !== null) throw customDomainExists();
    if ((await this.repo.routeOfFqdn(name.fqdn)) !== null) throw customDomainTaken();

    const now = new Date(this.ctx.clock.now());
    const zone = await this.holdersZone(caller, route, name.fqdn);
    if (zone?.domain === name.fqdn)
      throw invalidField(
        ['body', 'subdomain'],
        `${name.fqdn} is the apex of a zone hosted here, where a CNAME cannot sit: name a subdomain`,
        input.subdomain ?? null,
      );
    const { finding, managedZoneId } = await this.cnameFor(zone, route, name.fqdn);
    const outcome = afterCheck({ status: 'pending', missed_checks: 0 }, finding, now);
    const row: CustomDomainRow = {
      route_id: route.id,
      domain: name.domain,
      subdomain: name.subdomain,
      fqdn: name.fqdn,
      include_in_list: input.include_in_list ?? false,
      managed_zone_id: managedZoneId,
      created_at: now,
      ...outcome,
    };
    const inserted = await this.ctx.transaction(async (uow) => {
      const ok = await this.repo.withTx(uow.trx).insert(row);
      if (ok) uow.emit(routesChanged, { routeIds: [route.id] });
      return ok;
    });
    if (!inserted) {
      // Another call linked the route or took the name meanwhile: take back the record published for this one.
      if (managedZoneId !== null) await this.unpublish(managedZoneId, name.fqdn);
      throw (await this.repo.find(route.id)) !== null ? customDomainExists() : customDomainTaken();
    }
    return viewOf(row, route);
  }

  async setIncludeInList(caller: Principal, routeId: number, include: boolean): Promise<CustomDomainView> {
    const route = await this.ownedRoute(caller, routeId);
    const row = await this.repo.setIncludeInList(route.id, include);
    if (row === null) throw customDomainNotFound();
    return viewOf(row, route);
  }

  /** Unlinks the route's custom domain, and takes back the CNAME this module published for it. */
  async unlink(caller: Principal, routeId: number): Promise<void> {
    const route = await this.ownedRoute(caller, routeId);
    await this.ctx.transaction(async (uow) => {
      const row = await this.repo.withTx(uow.trx).delete(route.id);
      if (row === null) throw customDomainNotFound();
      uow.emit(routesChanged, { routeIds: [route.id] });
      const zoneId = row.managed_zone_id;
      if (zoneId !== null) uow.afterCommit(() => this.unpublish(zoneId, row.fqdn));
    });
  }

  /** Checks the route's custom domain now (the caller's own zone: publishes the CNAME again). */
  async verify(caller: Principal, routeId: number): Promise<CustomDomainView> {
    const route = await this.ownedRoute(caller, routeId);
    await this.ctx.budgets.charge(verifyBudget, routeBudgetKey(route.id));
    const row = await this.repo.find(route.id);
    if (row === null) throw customDomainNotFound();
    const checked = await this.check({ domain: row, route }, caller);
    if (checked === null) throw customDomainNotFound();
    return viewOf(checked, route);
  }

  start(): Promise<void> {
    if (this.timer !== null) return Promise.resolve();
    this.timer = setInterval(() => void this.checkDueInBackground(), CHECK_TICK_MS);
    this.timer.unref();
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.pass?.catch(() => 0);
  }

  /** Checks every domain whose check is due; answers how many it checked. */
  checkDue(): Promise<number> {
    this.pass ??= this.checkDuePass().finally(() => {
      this.pass = null;
    });
    return this.pass;
  }

  private async checkDueInBackground(): Promise<void> {
    try {
      await this.checkDue();
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'custom domain checks failed');
    }
  }

  private async checkDuePass(): Promise<number> {
    const now = new Date(this.ctx.clock.now());
    let checked = 0;
    for (const due of await this.repo.due(now, CHECKS_PER_PASS)) {
      const lease = new Date(now.getTime() + CHECK_LEASE_MS);
      if (!(await this.repo.claimCheck(due.domain.route_id, due.domain.next_check_at, lease))) continue;
      try {
        await this.check(due, null);
        checked++;
      } catch (error) {
        this.ctx.log.warn({ err: error, routeId: due.domain.route_id }, 'custom domain check failed');
      }
    }
    return checked;
  }

  /**
   * One check of a domain: its CNAME published here (a zone of the route's holder) or looked up,
   * the outcome written, and edge nodes told when the status changed. Null: the domain went.
   */
  private async check(due: DomainWithRoute, caller: Principal | null): Promise<CustomDomainRow | null> {
    const { domain, route } = due;
    const now = new Date(this.ctx.clock.now());
    const zone = await this.holdersZone(caller, route, domain.fqdn);
    const { finding, managedZoneId } = await this.cnameFor(zone, route, domain.fqdn);
    const formerZone = domain.managed_zone_id;
    // The zone went to another holder (or the record can no longer sit there): not this module's to keep.
    if (formerZone !== null && formerZone !== managedZoneId)
      await this.unpublish(formerZone, domain.fqdn).catch(() => 0);
    const outcome = { ...afterCheck(domain, finding, now), managed_zone_id: managedZoneId };
    return this.ctx.transaction(async (uow) => {
      const before = await this.repo.withTx(uow.trx).recordCheck(route.id, domain.fqdn, outcome);
      if (before === null) return null;
      if (before.status !== outcome.status) uow.emit(routesChanged, { routeIds: [route.id] });
      return { ...before, ...outcome };
    });
  }

  /**
   * The hosted zone of `fqdn` when it is the holder's: the caller's (or, in the background, the
   * route's creator's) own zone, or a zone of the route's organization.
   */
  private async holdersZone(
    caller: Principal | null,
    route: RouteRef,
    fqdn: string,
  ): Promise<HostedZone | null> {
    const zone = await this.deps.records.findZoneFor(fqdn);
    if (zone === null || zone.userId === null) return null;
    const userId = caller?.userId ?? route.user_id;
    const orgOk = route.org_id !== null && zone.orgId === route.org_id;
    const userOk = zone.orgId === null && zone.userId === userId;
    return orgOk || userOk ? zone : null;
  }

  /**
   * The CNAME of `fqdn`: published in the holder's zone (a match at once), or, without such a zone
   * or when the zone refuses the record (the holder's own records at the name), looked up.
   */
  private async cnameFor(
    zone: HostedZone | null,
    route: RouteRef,
    fqdn: string,
  ): Promise<{ finding: CnameFinding; managedZoneId: number | null }> {
    if (zone !== null && zone.domain !== fqdn && (await this.publish(zone, fqdn, route)))
      return { finding: { kind: 'match' }, managedZoneId: zone.zoneId };
    return { finding: await this.lookup(fqdn, addressOf(route)), managedZoneId: null };
  }

  /** Publishes the CNAME `fqdn` → the route's address as this module's record in `zone`; false when refused. */
  private async publish(zone: HostedZone, fqdn: string, route: RouteRef): Promise<boolean> {
    try {
      await this.deps.records.put(RECORD_OWNER, zone.zoneId, [
        { name: fqdn, type: 'CNAME', content: `${addressOf(route)}.`, ttl: CNAME_TTL },
      ]);
      return true;
    } catch (error) {
      if (error instanceof AppError && (error.status === 409 || error.status === 422)) return false;
      throw error;
    }
  }

  private async unpublish(zoneId: number, fqdn: string): Promise<void> {
    await this.deps.records.remove(RECORD_OWNER, zoneId, fqdn, 'CNAME');
  }
}
