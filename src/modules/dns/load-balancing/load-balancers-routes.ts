import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
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
  app: ModuleApp,
  service: LoadBalancersService,
  preview: LoadBalancerPreviewService,
): void {
  const base = '/zones/:zone_id/load-balancers';

  app.get<{ Params: Static<typeof ZoneIdParams> }>(
    base,
    { schema: { params: ZoneIdParams } },
    async (request) => service.list(await request.owner(), request.params.zone_id),
  );

  app.post<{ Params: Static<typeof ZoneIdParams>; Body: Static<typeof CreateLoadBalancerBody> }>(
    base,
    { schema: { params: ZoneIdParams, body: CreateLoadBalancerBody } },
    async (request, reply) =>
      reply.code(201).send(await service.create(await request.owner(), request.params.zone_id, request.body)),
  );

  app.get<{ Params: Static<typeof LoadBalancerParams> }>(
    `${base}/:lb_id`,
    { schema: { params: LoadBalancerParams } },
    async (request) => service.get(await request.owner(), request.params.zone_id, request.params.lb_id),
  );

  app.patch<{ Params: Static<typeof LoadBalancerParams>; Body: Static<typeof UpdateLoadBalancerBody> }>(
    `${base}/:lb_id`,
    { schema: { params: LoadBalancerParams, body: UpdateLoadBalancerBody } },
    async (request) =>
      service.update(await request.owner(), request.params.zone_id, request.params.lb_id, request.body),
  );

  app.delete<{ Params: Static<typeof LoadBalancerParams> }>(
    `${base}/:lb_id`,
    { schema: { params: LoadBalancerParams } },
    async (request, reply) => {
      await service.delete(await request.owner(), request.params.zone_id, request.params.lb_id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof LoadBalancerParams>; Body: PreviewRequest }>(
    `${base}/:lb_id/preview`,
    { schema: { params: LoadBalancerParams, body: PreviewBody } },
    async (request) =>
      preview.preview(
        await request.owner(),
        request.params.zone_id,
        request.params.lb_id,
        request.body ?? {},
      ),
  );
}
