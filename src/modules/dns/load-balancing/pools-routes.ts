import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { Static } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import { CreateLbPoolBody, CreatePoolBody, PoolParams, UpdatePoolBody } from './pools-schemas.ts';
import { LB_POOLS_FAMILY, POOLS_FAMILY, type CreatePool, type PoolsService } from './pools-service.ts';

/** The pools under both addresses: `/pools` and `/lb-pools` (the latter also takes `hostname`). */
export const POOL_SEGMENTS = ['pools', 'lb-pools'] as const;

export function registerPoolRoutes(app: ModuleApp, service: PoolsService): void {
  for (const segment of POOL_SEGMENTS) {
    const base = `/zones/:zone_id/${segment}`;
    const family = segment === 'pools' ? POOLS_FAMILY : LB_POOLS_FAMILY;
    const createBody = segment === 'pools' ? CreatePoolBody : CreateLbPoolBody;

    app.get<{ Params: Static<typeof ZoneIdParams> }>(
      base,
      { schema: { params: ZoneIdParams } },
      async (request) => service.list(await request.owner(), request.params.zone_id),
    );

    app.post<{ Params: Static<typeof ZoneIdParams>; Body: CreatePool }>(
      base,
      { schema: { params: ZoneIdParams, body: createBody } },
      async (request, reply) =>
        reply
          .code(201)
          .send(await service.create(await request.owner(), request.params.zone_id, request.body, family)),
    );

    app.get<{ Params: Static<typeof PoolParams> }>(
      `${base}/:pool_id`,
      { schema: { params: PoolParams } },
      async (request) => service.get(await request.owner(), request.params.zone_id, request.params.pool_id),
    );

    app.patch<{ Params: Static<typeof PoolParams>; Body: Static<typeof UpdatePoolBody> }>(
      `${base}/:pool_id`,
      { schema: { params: PoolParams, body: UpdatePoolBody } },
      async (request) =>
        service.update(
          await request.owner(),
          request.params.zone_id,
          request.params.pool_id,
          request.body,
          family,
        ),
    );

    app.delete<{ Params: Static<typeof PoolParams> }>(
      `${base}/:pool_id`,
      { schema: { params: PoolParams } },
      async (request, reply) => {
        await service.delete(await request.owner(), request.params.zone_id, request.params.pool_id);
        return reply.code(204).send();
      },
    );
  }
}
