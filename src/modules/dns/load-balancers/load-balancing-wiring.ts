import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { openIpLocator, type IpLocator } from '../../../geo/ip-locator.ts';
import type { AppContext } from '../../../kernel/app-context.ts';
import { createMemberProber } from '../../../health/probe-member.ts';
import { MemberHealthCheckService } from '../members/member-health-check-service.ts';
import { DbMemberHealthStore } from '../members/member-health-store.ts';
import { memberProbeGuard } from '../members/member-probe-guard.ts';
import { MembersRepository } from '../members/members-repository.ts';
import { registerMemberRoutes } from '../members/members-routes.ts';
import { MembersService } from '../members/members-service.ts';
import { PoolsRepository } from '../pools/pools-repository.ts';
import { registerPoolRoutes } from '../pools/pools-routes.ts';
import { PoolsService } from '../pools/pools-service.ts';
import type { RecordsService } from '../records/records-service.ts';
import type { DnsTables } from '../shared/dns-tables.ts';
import type { ZoneChanges } from '../zones/zone-change.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { LoadBalancerPreviewService } from './lb-preview-service.ts';
import { LoadBalancersRepository } from './load-balancers-repository.ts';
import { registerLoadBalancerRoutes } from './load-balancers-routes.ts';
import { LoadBalancersService } from './load-balancers-service.ts';

export interface LoadBalancingDeps {
  readonly db: Kysely<DnsTables>;
  readonly zones: ZonesRepository;
  readonly records: RecordsService;
  readonly changes: ZoneChanges;
}

/**
 * Load balancing in the DNS module: pools (under /pools and /lb-pools), members, load balancers
 * and their preview; load balancer hostnames are claimed against A/AAAA/CNAME records.
 */
export function registerLoadBalancing(app: FastifyInstance, ctx: AppContext, deps: LoadBalancingDeps): void {
  const { db, zones, records, changes } = deps;
  const poolsRepo = new PoolsRepository(db);
  const membersRepo = new MembersRepository(db);
  const lbRepo = new LoadBalancersRepository(db);
  const allowPrivate = ctx.config.healthAllowPrivateTargets;
  const loadBalancers = new LoadBalancersService(lbRepo, poolsRepo, zones, changes);
  records.addNameClaimSource(loadBalancers.nameClaims);
  registerPoolRoutes(
    app,
    new PoolsService(poolsRepo, membersRepo, lbRepo, loadBalancers, zones, changes, allowPrivate),
  );
  const healthChecks = new MemberHealthCheckService(db, zones, poolsRepo, membersRepo, ctx.clock, {
    probe: createMemberProber({ guard: memberProbeGuard(allowPrivate), clock: ctx.clock }),
    sink: new DbMemberHealthStore(db),
    bus: ctx.bus,
    log: ctx.log,
  });
  registerMemberRoutes(
    app,
    new MembersService(membersRepo, poolsRepo, changes, allowPrivate, ctx.bus),
    healthChecks,
  );
  // The GeoIP database is opened on the first resolver_ip preview only; without it, no placement.
  let locator: Promise<IpLocator | null> | null = null;
  const openLocator = () => (locator ??= openIpLocator(ctx.config.geoipDb).catch(() => null));
  registerLoadBalancerRoutes(
    app,
    loadBalancers,
    new LoadBalancerPreviewService(db, membersRepo, loadBalancers, ctx.config.pop, openLocator),
  );
}

/** Once at start: say loudly that health checks may reach private networks. */
export function warnIfPrivateTargetsAllowed(ctx: AppContext): void {
  if (ctx.config.healthAllowPrivateTargets) {
    ctx.log.warn(
      'HEALTH_ALLOW_PRIVATE_TARGETS is set: origin members and health checks may target private and loopback addresses',
    );
  }
}
