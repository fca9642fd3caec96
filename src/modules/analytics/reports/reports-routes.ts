import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  ConversionsResponse,
  LiveResponse,
  OrgParams,
  PagesQuery,
  PagesResponse,
  RangeQuery,
  StatsQuery,
  StatsResponse,
  TodayResponse,
} from './reports-schemas.ts';
import type { StatsService } from './reports-service.ts';

const MEMBER = { auth: 'org:member' } as const;

/** /orgs/{org_slug}/tracking/...: an organization's figures, for its members. */
export function registerStatsRoutes(app: ModuleApp, stats: StatsService): void {
  app.get(
    '/orgs/:org_slug/tracking/stats',
    {
      config: MEMBER,
      schema: {
        summary:
          'Visitors, page views, visits, bounce rate, visit duration and events by bucket, oldest first',
        params: OrgParams,
        querystring: StatsQuery,
        response: { 200: StatsResponse, ...errorResponses(404) },
      },
    },
    async (request) =>
      stats.stats(
        request.principal.orgId!,
        request.query.start_date,
        request.query.end_date,
        request.query.granularity ?? 'daily',
      ),
  );
  app.get(
    '/orgs/:org_slug/tracking/pages',
    {
      config: MEMBER,
      schema: {
        summary: 'Top pages by page views (over the raw events: the last TRACKING_RETENTION_DAYS days)',
        params: OrgParams,
        querystring: PagesQuery,
        response: { 200: PagesResponse, ...errorResponses(404) },
      },
    },
    async (request) =>
      stats.pages(
        request.principal.orgId!,
        request.query.start_date,
        request.query.end_date,
        request.query.page ?? 1,
        request.query.per_page ?? 50,
      ),
  );
  app.get(
    '/orgs/:org_slug/tracking/live',
    {
      config: MEMBER,
      schema: {
        summary: 'Visitors of the last 5 minutes',
        params: OrgParams,
        response: { 200: LiveResponse, ...errorResponses(404) },
      },
    },
    async (request) => stats.live(request.principal.orgId!),
  );
  app.get(
    '/orgs/:org_slug/tracking/today',
    {
      config: MEMBER,
      schema: {
        summary: "Today's totals (UTC) and its hours, first to last",
        params: OrgParams,
        response: { 200: TodayResponse, ...errorResponses(404) },
      },
    },
    async (request) => stats.today(request.principal.orgId!),
  );
  app.get(
    '/orgs/:org_slug/tracking/conversions',
    {
      config: MEMBER,
      schema: {
        summary: 'Visits that ended in a storefront order, by source, referrer and UTM',
        params: OrgParams,
        querystring: RangeQuery,
        response: { 200: ConversionsResponse, ...errorResponses(404) },
      },
    },
    async (request) =>
      stats.conversions(request.principal.orgId!, request.query.start_date, request.query.end_date),
  );
}
