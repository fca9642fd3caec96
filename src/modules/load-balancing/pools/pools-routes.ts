import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Type } from 'typebox';
import { ZoneIdParams } from '../../dns/index.ts';
import {
  CreateLbPoolBody,
  CreatePoolBody,
  PoolParams,
  PoolResponse,
  PoolWriteResponse,
  UpdatePoolBody,
} from './pools-schemas.ts';
import type { LoadBalancingLintService } from '../lint/lb-lint-service.ts';
import { LB_POOLS_FAMILY, POOLS_FAMILY, type PoolsService } from './pools-service.ts';

/** The pools under both addresses: `/pools` and `/lb-pools` (the latter also takes `hostname`). */
export const POOL_SEGMENTS = ['pools', 'lb-pools'] as const;

export function registerPoolRoutes(
  app: ModuleApp,
  service: PoolsService,
  lint: LoadBalancingLintService,
): void {
  for (const segment of POOL_SEGMENTS) {
    const base = `/zones/:zone_id/${segment}`;
    const family = segment === 'pools' ? POOLS_FAMILY : LB_POOLS_FAMILY;
    const createBody = segment === 'pools' ? CreatePoolBody : CreateLbPoolBody;

    app.get(
      base,
      {
        schema: {
          description: 'The zone’s pools, ordered by id (oldest first); each pool’s members by id.',
          summary: "The zone's origin pools, members included",
          params: ZoneIdParams,
          response: { 200: Type.Array(PoolResponse), ...errorResponses(401, 404, 422, 429) },
        },
      },
      async (request) => service.list(await request.owner(), request.params.zone_id),
    );

    app.post(
      base,
      {
        schema: {
          summary:
            segment === 'pools'
              ? 'Create an origin pool, with its members'
              : 'Create an origin pool, with its members and (with hostname) a load balancer answering from it',
          params: ZoneIdParams,
          body: createBody,
          response: { 201: PoolWriteResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
        },
      },
      async (request, reply) => {
        const pool = await service.create(
          await request.owner(),
          request.params.zone_id,
          request.body,
          family,
        );
        return reply.code(201).send({ ...pool, warnings: await lint.ofPool(pool.zone_id, pool.id) });
      },
    );

    app.get(
      `${base}/:pool_id`,
      {
        schema: {
          description: 'One pool; its members ordered by id (oldest first).',
          summary: 'One origin pool, members included',
          params: PoolParams,
          response: { 200: PoolResponse, ...errorResponses(401, 404, 422, 429) },
        },
      },
      async (request) => service.get(await request.owner(), request.params.zone_id, request.params.pool_id),
    );

    app.patch(
      `${base}/:pool_id`,
      {
        schema: {
          summary: "Change an origin pool's settings",
          params: PoolParams,
          body: UpdatePoolBody,
          response: { 200: PoolWriteResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
        },
      },
      async (request) => {
        const { zone_id, pool_id } = request.params;
        const pool = await service.update(await request.owner(), zone_id, pool_id, request.body, family);
        return { ...pool, warnings: await lint.ofPool(pool.zone_id, pool.id) };
      },
    );

    app.delete(
      `${base}/:pool_id`,
      {
        schema: {
          summary: 'Delete an origin pool no load balancer refers to',
          params: PoolParams,
          response: { 204: NoContent, ...errorResponses(401, 403, 404, 409, 422, 429) },
        },
      },
      async (request, reply) => {
        await service.delete(await request.owner(), request.params.zone_id, request.params.pool_id);
        return reply.code(204).send();
      },
    );
  }
}
