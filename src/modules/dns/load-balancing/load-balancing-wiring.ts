import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { openIpLocator, type IpLocator } from '../../../geo/ip-locator.ts';
import type { DnsContext } from '../dns-context.ts';
import { createMemberProber } from '../../../health/probe-member.ts';
import { MemberHealthCheckService } from './member-health-check-service.ts';
import { DbMemberHealthStore } from './member-health-store.ts';
import { memberProbeGuard } from './member-probe-guard.ts';
import { MembersRepository } from './members-repository.ts';
import { registerMemberRoutes } from './members-routes.ts';
import { MembersService } from './members-service.ts';
import { PoolsRepository } from './pools-repository.ts';
import { registerPoolRoutes } from './pools-routes.ts';
import { PoolsService } from './pools-service.ts';
import type { RecordsService } from '../records/records-service.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { LoadBalancerPreviewService } from './lb-preview-service.ts';
import { LoadBalancingLintService } from './lb-lint-service.ts';
import { LoadBalancersRepository } from './load-balancers-repository.ts';
import { registerLoadBalancerRoutes } from './load-balancers-routes.ts';
import { LoadBalancersService } from './load-balancers-service.ts';

export interface LoadBalancingDeps {
  readonly zones: ZonesRepository;
  readonly records: RecordsService;
  readonly changes: ZoneChanges;
}

/**
 * Load balancing in the DNS module: pools (under /pools and /lb-pools), members, load balancers
 * and their preview; load balancer hostnames are claimed against A/AAAA/CNAME records.
 */
export function registerLoadBalancing(app: ModuleApp, ctx: DnsContext, deps: LoadBalancingDeps): void {
  const { zones, records, changes } = deps;
  const db = ctx.db;
  const poolsRepo = new PoolsRepository(db);
  const membersRepo = new MembersRepository(db);
  const lbRepo = new LoadBalancersRepository(db);
  const allowPrivate = ctx.settings.healthAllowPrivateTargets;
  const loadBalancers = new LoadBalancersService(lbRepo, poolsRepo, zones, changes);
  records.addNameClaimSource(loadBalancers.nameClaims);
  const lint = new LoadBalancingLintService(db, zones, membersRepo, ctx.settings.deploymentPops);
  registerPoolRoutes(
    app,
    new PoolsService(poolsRepo, membersRepo, lbRepo, loadBalancers, zones, changes, allowPrivate),
    lint,
  );
  const { pop, healthPolicy, healthSourceAddresses } = ctx.settings;
  const healthChecks = new MemberHealthCheckService(zones, poolsRepo, membersRepo, db, ctx.clock, pop, {
    probe: createMemberProber({
      guard: memberProbeGuard(allowPrivate),
      clock: ctx.clock,
      sourceAddresses: healthSourceAddresses,
    }),
    sink: new DbMemberHealthStore(db, pop, healthPolicy),
    bus: ctx.bus,
    log: ctx.log,
  });
  registerMemberRoutes(
    app,
    new MembersService(membersRepo, poolsRepo, changes, allowPrivate, ctx.events, ctx.clock),
    healthChecks,
  );
  // The GeoIP database is opened on the first resolver_ip preview only; without it, no placement.
  let locator: Promise<IpLocator | null> | null = null;
  const openLocator = () => (locator ??= openIpLocator(ctx.settings.geoipDb).catch(() => null));
  registerLoadBalancerRoutes(
    app,
    loadBalancers,
    new LoadBalancerPreviewService(db, membersRepo, loadBalancers, ctx.settings.pop, openLocator),
    lint,
  );
}

/** Once at start: say loudly that health checks may reach private networks. */
export function warnIfPrivateTargetsAllowed(ctx: DnsContext): void {
  if (ctx.settings.healthAllowPrivateTargets) {
    ctx.log.warn(
      'HEALTH_ALLOW_PRIVATE_TARGETS is set: origin members and health checks may target private and loopback addresses',
    );
  }
}
