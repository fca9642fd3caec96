import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { PoolParams } from './pools-schemas.ts';
import { CreateMemberBody, MemberParams, MemberResponse, UpdateMemberBody } from './members-schemas.ts';
import type { MembersService } from './members-service.ts';

/** Members under either pool address: `/pools/{pool_id}/members` and `/lb-pools/{pool_id}/members`. */
export function registerMemberRoutes(app: ModuleApp, service: MembersService): void {
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
