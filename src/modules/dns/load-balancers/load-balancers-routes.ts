import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import type { LoadBalancerPreviewService, PreviewRequest } from './lb-preview-service.ts';
import {
  CreateLoadBalancerBody,
  LoadBalancerParams,
  PreviewBody,
  UpdateLoadBalancerBody,
} from './load-balancers-schemas.ts';
import type { LoadBalancersService } from './load-balancers-service.ts';

export function registerLoadBalancerRoutes(
  app: FastifyInstance,
  service: LoadBalancersService,
  preview: LoadBalancerPreviewService,
): void {
  const base = '/api/v1/dns/zones/:zone_id/load-balancers';

  app.get<{ Params: Static<typeof ZoneIdParams> }>(
    base,
    { schema: { params: ZoneIdParams } },
    async (request) => service.list(request.userId, request.params.zone_id),
  );

  app.post<{ Params: Static<typeof ZoneIdParams>; Body: Static<typeof CreateLoadBalancerBody> }>(
    base,
    { schema: { params: ZoneIdParams, body: CreateLoadBalancerBody } },
    async (request, reply) =>
      reply.code(201).send(await service.create(request.userId, request.params.zone_id, request.body)),
  );

  app.get<{ Params: Static<typeof LoadBalancerParams> }>(
    `${base}/:lb_id`,
    { schema: { params: LoadBalancerParams } },
    async (request) => service.get(request.userId, request.params.zone_id, request.params.lb_id),
  );

  app.patch<{ Params: Static<typeof LoadBalancerParams>; Body: Static<typeof UpdateLoadBalancerBody> }>(
    `${base}/:lb_id`,
    { schema: { params: LoadBalancerParams, body: UpdateLoadBalancerBody } },
    async (request) =>
      service.update(request.userId, request.params.zone_id, request.params.lb_id, request.body),
  );

  app.delete<{ Params: Static<typeof LoadBalancerParams> }>(
    `${base}/:lb_id`,
    { schema: { params: LoadBalancerParams } },
    async (request, reply) => {
      await service.delete(request.userId, request.params.zone_id, request.params.lb_id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof LoadBalancerParams>; Body: PreviewRequest }>(
    `${base}/:lb_id/preview`,
    { schema: { params: LoadBalancerParams, body: PreviewBody } },
    async (request) =>
      preview.preview(request.userId, request.params.zone_id, request.params.lb_id, request.body ?? {}),
  );
}
