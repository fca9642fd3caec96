import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { PoolParams } from './pools-schemas.ts';
import {
  CreateMemberBody,
  HealthCheckResponse,
  HealthHistoryQuery,
  HealthHistoryResponse,
  MemberParams,
  MemberResponse,
  UpdateMemberBody,
} from './members-schemas.ts';
import type { MemberHealthCheckService } from './member-health-check-service.ts';
import type { MembersService } from './members-service.ts';

/** Members under either pool address: `/pools/{pool_id}/members` and `/lb-pools/{pool_id}/members`. */
export function registerMemberRoutes(
  app: ModuleApp,
  service: MembersService,
  healthChecks: MemberHealthCheckService,
): void {
  for (const segment of ['pools', 'lb-pools']) {
    const base = `/zones/:zone_id/${segment}/:pool_id/members`;

    app.post(
      base,
      {
        schema: {
          summary: 'Add a member (origin) to a pool',
          params: PoolParams,
          body: CreateMemberBody,
          response: { 201: MemberResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await service.create(
              await request.owner(),
              request.params.zone_id,
              request.params.pool_id,
              request.body,
            ),
          ),
    );

    app.patch(
      `${base}/:member_id`,
      {
        schema: {
          summary: 'Change a member (a new address or health mode starts its health over)',
          params: MemberParams,
          body: UpdateMemberBody,
          response: { 200: MemberResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
        },
      },
      async (request) => {
        const { zone_id, pool_id, member_id } = request.params;
        return service.update(await request.owner(), zone_id, pool_id, member_id, request.body);
      },
    );

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

    app.delete(
      `${base}/:member_id`,
      {
        schema: {
          summary: 'Remove a member from its pool',
          params: MemberParams,
          response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
        },
      },
      async (request, reply) => {
        const { zone_id, pool_id, member_id } = request.params;
        await service.delete(await request.owner(), zone_id, pool_id, member_id);
        return reply.code(204).send();
      },
    );
  }
}
