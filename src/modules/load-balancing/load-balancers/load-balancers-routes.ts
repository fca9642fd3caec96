import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Type } from 'typebox';
import { ZoneIdParams } from '../../dns/index.ts';
import type { LoadBalancingLintService } from '../lint/lb-lint-service.ts';
import {
  CreateLoadBalancerBody,
  LoadBalancerResponse,
  LoadBalancerWriteResponse,
  UpdateLoadBalancerBody,
} from './load-balancers-schemas.ts';
import type { LoadBalancersService } from './load-balancers-service.ts';
import { LoadBalancerParams } from '../shared/load-balancer-params.ts';

/** /zones/{zone_id}/load-balancers: list, create, read, change, delete (writes answer the linter's findings). */
export function registerLoadBalancerRoutes(
  app: ModuleApp,
  service: LoadBalancersService,
  lint: LoadBalancingLintService,
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
        response: {
          201: LoadBalancerWriteResponse,
          ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const lb = await service.create(await request.owner(), request.params.zone_id, request.body);
      return reply.code(201).send({ ...lb, warnings: await lint.ofLoadBalancer(lb.zone_id, lb.id) });
    },
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
        response: {
          200: LoadBalancerWriteResponse,
          ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request) => {
      const { zone_id, lb_id } = request.params;
      const lb = await service.update(await request.owner(), zone_id, lb_id, request.body);
      return { ...lb, warnings: await lint.ofLoadBalancer(lb.zone_id, lb.id) };
    },
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
}
