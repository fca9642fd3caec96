import { openIpLocator, type IpLocator } from '../../geo/ip-locator.ts';
import { createMemberProber } from '../../health/probe-member.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { ModuleApp, PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { auditZoneOrg, dnsConfig, type NameClaimSource, type ZoneAccess } from '../dns/index.ts';
import type { RegionsDirectory } from '../locations/index.ts';
import { registerHealthRoutes } from './health/health-routes.ts';
import { MemberHealthCheckService } from './health/member-health-check-service.ts';
import { MemberHealthRepository } from './health/member-health-repository.ts';
import { DbMemberHealthStore } from './health/member-health-store.ts';
import { memberProbeGuard } from './health/member-probe-guard.ts';
import { LoadBalancingLintService } from './lint/lb-lint-service.ts';
import { registerLintRoutes } from './lint/lint-routes.ts';
import { loadBalancingContext, type LoadBalancingContext } from './load-balancing-context.ts';
import { LoadBalancersRepository } from './load-balancers/load-balancers-repository.ts';
import { registerLoadBalancerRoutes } from './load-balancers/load-balancers-routes.ts';
import { LoadBalancersService } from './load-balancers/load-balancers-service.ts';
import { MembersRepository } from './pools/members-repository.ts';
import { registerMemberRoutes } from './pools/members-routes.ts';
import { MembersService } from './pools/members-service.ts';
import { PoolsRepository } from './pools/pools-repository.ts';
import { registerPoolRoutes } from './pools/pools-routes.ts';
import { PoolsService } from './pools/pools-service.ts';
import { LoadBalancerPreviewService } from './preview/lb-preview-service.ts';
import { registerPreviewRoutes } from './preview/preview-routes.ts';
import { registerRegionRoutes } from './regions/regions-routes.ts';
import { SteeringLoader } from './steering/steering-loader.ts';
import { SteeringRepository } from './steering/steering-repository.ts';

export interface LoadBalancingModuleDeps {
  /** The zones pools, members and load balancers live in: access checks and zone changes. */
  readonly zones: ZoneAccess;
  /** Where load balancer hostnames are claimed: records refused there (the DNS module reads it). */
  readonly nameClaims: Registry<NameClaimSource>;
  readonly regions: RegionsDirectory;
}

/**
 * Load balancing (under /api/v1/dns, inside zones): origin pools (under /pools and /lb-pools) and
 * their members, member health, load balancers, their preview, what-if and traffic shares, the
 * linter, the regions. Every change is a zone change of the DNS module (zoneAccess).
 */
export function createLoadBalancingModule(runtime: Runtime, deps: LoadBalancingModuleDeps): PlatformModule {
  const ctx = loadBalancingContext(runtime);
  const { pop, deploymentPops, geoipDb } = runtime.config.section(dnsConfig);
  const { zones } = deps;
  const allowPrivate = ctx.settings.healthAllowPrivateTargets;
  const poolsRepo = new PoolsRepository(ctx.db);
  const membersRepo = new MembersRepository(ctx.db);
  const lbRepo = new LoadBalancersRepository(ctx.db);
  const steering = new SteeringLoader(new SteeringRepository(ctx.db));
  const loadBalancers = new LoadBalancersService(lbRepo, zones);
  deps.nameClaims.add(loadBalancers.nameClaims);
  const lint = new LoadBalancingLintService(steering, zones, deploymentPops);
  const healthRepo = new MemberHealthRepository(ctx.db);
  const healthChecks = new MemberHealthCheckService(
    zones,
    poolsRepo,
    membersRepo,
    healthRepo,
    ctx.clock,
    pop,
    {
      probe: createMemberProber({
        guard: memberProbeGuard(allowPrivate),
        clock: ctx.clock,
        sourceAddresses: ctx.settings.healthSourceAddresses,
      }),
      sink: new DbMemberHealthStore(healthRepo, pop, ctx.settings.healthPolicy),
      bus: ctx.bus,
      log: ctx.log,
    },
  );
  // The GeoIP database is opened on the first resolver_ip preview only; without it, no placement.
  let locator: Promise<IpLocator | null> | null = null;
  const openLocator = () => (locator ??= openIpLocator(geoipDb).catch(() => null));
  const preview = new LoadBalancerPreviewService(steering, membersRepo, loadBalancers, pop, openLocator);
  return {
    name: 'load-balancing',
    prefix: '/dns',
    // Its routes were the DNS module's: their audit actions keep the `dns.` prefix.
    auditName: 'dns',
    routes(app: ModuleApp) {
      auditZoneOrg(app, (zoneId) => zones.orgOf(zoneId));
      // A preview (and its what-if matrix) changes nothing: not audited.
      app.addHook('onRoute', (route) => {
        if (route.url.endsWith('/preview') || route.url.endsWith('/preview/matrix'))
          route.config = { ...route.config, audit: false };
      });
      registerRegionRoutes(app, deps.regions);
      registerPoolRoutes(
        app,
        new PoolsService(poolsRepo, membersRepo, lbRepo, loadBalancers, zones, allowPrivate),
        lint,
      );
      registerMemberRoutes(
        app,
        new MembersService(membersRepo, poolsRepo, zones, allowPrivate, ctx.events, ctx.clock),
      );
      registerHealthRoutes(app, healthChecks);
      registerLoadBalancerRoutes(app, loadBalancers, lint);
      registerPreviewRoutes(app, preview);
      registerLintRoutes(app, lint);
    },
    async start() {
      warnIfPrivateTargetsAllowed(ctx);
    },
  };
}

/** Once at start: say loudly that health checks may reach private networks. */
export function warnIfPrivateTargetsAllowed(ctx: Pick<LoadBalancingContext, 'settings' | 'log'>): void {
  if (ctx.settings.healthAllowPrivateTargets) {
    ctx.log.warn(
      'HEALTH_ALLOW_PRIVATE_TARGETS is set: origin members and health checks may target private and loopback addresses',
    );
  }
}
