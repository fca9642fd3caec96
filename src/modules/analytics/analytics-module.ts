import { randomBytes } from 'node:crypto';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import { analyticsContext } from './analytics-context.ts';
import type { OrderEventsListener } from './analytics-interfaces.ts';
import { IngestRepository } from './ingest/ingest-repository.ts';
import { registerIngestRoutes } from './ingest/ingest-routes.ts';
import { IngestService } from './ingest/ingest-service.ts';
import { SitesRepository } from './sites/sites-repository.ts';
import { registerSitesRoutes } from './sites/sites-routes.ts';
import { SitesService } from './sites/sites-service.ts';
import { orderListener } from './reports/order-listener.ts';
import { StatsRepository } from './reports/reports-repository.ts';
import { registerStatsRoutes } from './reports/reports-routes.ts';
import { StatsService } from './reports/reports-service.ts';

export interface AnalyticsModuleDeps {
  readonly orgs: OrgDirectory;
  /** Random bytes (site keys, the salt of each day); default node:crypto's. */
  readonly random?: (bytes: number) => Buffer;
}

export interface AnalyticsModule extends PlatformModule {
  /** Hears storefront orders among the outbox events (the delivery engine's fan-outs). */
  readonly orders: OrderEventsListener;
}

/**
 * Privacy-friendly storefront analytics (docs/analytics.md): the tracking script, the public
 * ingestion route (base /api/v1/t/{site_key}) and an organization's figures
 * (/api/v1/orgs/{org_slug}/tracking/...).
 */
export function createAnalyticsModule(runtime: Runtime, deps: AnalyticsModuleDeps): AnalyticsModule {
  const ctx = analyticsContext(runtime);
  const random = deps.random ?? randomBytes;
  const sites = new SitesService(ctx, new SitesRepository(ctx.db), random);
  const ingest = new IngestService(ctx, new IngestRepository(ctx.db), random);
  const statsRepo = new StatsRepository(ctx.db);
  const stats = new StatsService(ctx, statsRepo, ingest);
  return {
    name: 'analytics',
    prefix: '',
    routes: (app) => {
      registerSitesRoutes(app, sites, deps.orgs);
      registerIngestRoutes(app, sites, ingest);
      registerStatsRoutes(app, stats);
    },
    orders: orderListener(statsRepo, ctx.log),
    start: async () => {
      await ingest.sweep();
      ingest.start();
    },
    stop: () => ingest.stop(),
  };
}
