import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { Static } from 'typebox';
import { PoolParams } from './pools-schemas.ts';
import { CreateMemberBody, MemberParams, UpdateMemberBody } from './members-schemas.ts';
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

    app.post<{ Params: Static<typeof PoolParams>; Body: Static<typeof CreateMemberBody> }>(
      base,
      { schema: { params: PoolParams, body: CreateMemberBody } },
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

    app.patch<{ Params: Static<typeof MemberParams>; Body: Static<typeof UpdateMemberBody> }>(
      `${base}/:member_id`,
      { schema: { params: MemberParams, body: UpdateMemberBody } },
      async (request) => {
        const { zone_id, pool_id, member_id } = request.params;
        return service.update(await request.owner(), zone_id, pool_id, member_id, request.body);
      },
    );

    // Runs a probe now (from this process) and answers its result; stored like a scheduled one.
    app.post<{ Params: Static<typeof MemberParams> }>(
      `${base}/:member_id/health-check`,
      { schema: { params: MemberParams } },
      async (request) => {
        const { zone_id, pool_id, member_id } = request.params;
        return healthChecks.check(await request.owner(), zone_id, pool_id, member_id);
      },
    );

    app.delete<{ Params: Static<typeof MemberParams> }>(
      `${base}/:member_id`,
      { schema: { params: MemberParams } },
      async (request, reply) => {
        const { zone_id, pool_id, member_id } = request.params;
        await service.delete(await request.owner(), zone_id, pool_id, member_id);
        return reply.code(204).send();
      },
    );
  }
}
