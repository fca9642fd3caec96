import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Type } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import type { LoadBalancerPreviewService } from './lb-preview-service.ts';
import {
  CreateLoadBalancerBody,
  LoadBalancerParams,
  LoadBalancerResponse,
  PreviewBody,
  PreviewResponse,
  UpdateLoadBalancerBody,
} from './load-balancers-schemas.ts';
import type { LoadBalancersService } from './load-balancers-service.ts';

/** /zones/{zone_id}/load-balancers: list, create, read, change, delete, and a preview of the steering. */
export function registerLoadBalancerRoutes(
  app: ModuleApp,
  service: LoadBalancersService,
  preview: LoadBalancerPreviewService,
): void {
  const base = '/zones/:zone_id/load-balancers';

  app.get(
    base,
    {
      schema: {
        description:
          'The zone’s load balancers, ordered by id (oldest first); pool lists in the order they were given (their priority).',
        summary: "The zone's load balancers",
        params: ZoneIdParams,
        response: { 200: Type.Array(LoadBalancerResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.zone_id),
  );

  app.post(
    base,
    {
      schema: {
        summary: 'Create a load balancer: a hostname answered from pools instead of records',
        params: ZoneIdParams,
        body: CreateLoadBalancerBody,
        response: { 201: LoadBalancerResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(await request.owner(), request.params.zone_id, request.body)),
  );

  app.get(
    `${base}/:lb_id`,
    {
      schema: {
        description: 'One load balancer; its pool lists in the order they were given (their priority).',
        summary: 'One load balancer',
        params: LoadBalancerParams,
        response: { 200: LoadBalancerResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.get(await request.owner(), request.params.zone_id, request.params.lb_id),
  );

  app.patch(
    `${base}/:lb_id`,
    {
      schema: {
        summary: 'Change a load balancer',
        params: LoadBalancerParams,
        body: UpdateLoadBalancerBody,
        response: { 200: LoadBalancerResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request) =>
      service.update(await request.owner(), request.params.zone_id, request.params.lb_id, request.body),
  );

  app.delete(
    `${base}/:lb_id`,
    {
      schema: {
        summary: 'Delete a load balancer',
        params: LoadBalancerParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.delete(await request.owner(), request.params.zone_id, request.params.lb_id);
      return reply.code(204).send();
    },
  );

  app.post(
    `${base}/:lb_id/preview`,
    {
      schema: {
        summary: 'How a query would be answered now, with the trace of the steering cascade',
        params: LoadBalancerParams,
        body: PreviewBody,
        response: { 200: PreviewResponse, ...errorResponses(401, 404, 413, 415, 422, 429) },
      },
      // Every field is optional: no body, or a zero-byte JSON one, previews the defaults.
      config: { optionalBody: true },
    },
    async (request) =>
      preview.preview(
        await request.owner(),
        request.params.zone_id,
        request.params.lb_id,
        request.body ?? {},
      ),
  );
}
