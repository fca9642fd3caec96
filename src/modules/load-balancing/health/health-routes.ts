import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { MemberParams } from '../pools/members-schemas.ts';
import { HealthCheckResponse, HealthHistoryQuery, HealthHistoryResponse } from './health-schemas.ts';
import type { MemberHealthCheckService } from './member-health-check-service.ts';

/** A member's health under either pool address: a probe now, and the history of probes and changes. */
export function registerHealthRoutes(app: ModuleApp, healthChecks: MemberHealthCheckService): void {
  for (const segment of ['pools', 'lb-pools']) {
    const base = `/zones/:zone_id/${segment}/:pool_id/members`;

    // Runs a probe now (from this process) and answers its result; stored like a scheduled one.
    app.post(
      `${base}/:member_id/health-check`,
      {
        schema: {
          summary: "Probe a member now and store the result as the checker's",
          params: MemberParams,
          response: { 200: HealthCheckResponse, ...errorResponses(401, 404, 422, 429) },
        },
      },
      async (request) => {
        const { zone_id, pool_id, member_id } = request.params;
        return healthChecks.check(await request.owner(), zone_id, pool_id, member_id);
      },
    );

    app.get(
      `${base}/:member_id/health-history`,
      {
        schema: {
          summary: 'The latest probes of a member (by PoP) and the changes of its status, newest first',
          params: MemberParams,
          querystring: HealthHistoryQuery,
          response: { 200: HealthHistoryResponse, ...errorResponses(401, 404, 422, 429) },
        },
      },
      async (request) => {
        const { zone_id, pool_id, member_id } = request.params;
        const limit = request.query.limit ?? 50;
        return healthChecks.history(await request.owner(), zone_id, pool_id, member_id, limit);
      },
    );
  }
}
