import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Type } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import type { LoadBalancerPreviewService } from './lb-preview-service.ts';
import type { LoadBalancingLintService } from './lb-lint-service.ts';
import {
  MatrixBody,
  MatrixResponse,
  WhatIfPreviewBody,
  WhatIfPreviewResponse,
  WhatIfTrafficShareBody,
} from './what-if-schemas.ts';
import {
  CreateLoadBalancerBody,
  LoadBalancerParams,
  LintFindingResponse,
  LoadBalancerResponse,
  LoadBalancerWriteResponse,
  TrafficShareQuery,
  TrafficShareResponse,
  UpdateLoadBalancerBody,
} from './load-balancers-schemas.ts';
import type { LoadBalancersService } from './load-balancers-service.ts';

/** /zones/{zone_id}/load-balancers: list, create, read, change, delete, and a preview of the steering. */
export function registerLoadBalancerRoutes(
  app: ModuleApp,
  service: LoadBalancersService,
  preview: LoadBalancerPreviewService,
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

  app.get(
    `${base}/:lb_id/traffic-share`,
    {
      schema: {
        description:
          'The exact probability of each answer for a client placed by the query (pop, country, region; qtype A or ' +
          'AAAA): weights × health × algorithm × cascade, computed by the same steering function the DNS server ' +
          'runs (no sampling). Member shares, servfail_share and nodata_share sum to 1; members largest share first. ' +
          'With client_ip affinity, the split over the clients of that place.',
        summary: 'Exact traffic shares of a load balancer’s members for a client location',
        params: LoadBalancerParams,
        querystring: TrafficShareQuery,
        response: { 200: TrafficShareResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      preview.trafficShare(
        await request.owner(),
        request.params.zone_id,
        request.params.lb_id,
        request.query,
      ),
  );

  app.post(
    `${base}/:lb_id/traffic-share`,
    {
      schema: {
        summary: 'Exact traffic shares after unsaved what_if changes (never saved)',
        description: 'As the GET, with the place in the body beside a what_if (as in the preview).',
        params: LoadBalancerParams,
        body: WhatIfTrafficShareBody,
        response: { 200: TrafficShareResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
      },
      config: { optionalBody: true, audit: false },
    },
    async (request) => {
      const { what_if: whatIf, ...place } = request.body ?? {};
      return preview.trafficShare(
        await request.owner(),
        request.params.zone_id,
        request.params.lb_id,
        place,
        whatIf,
        'body',
      );
    },
  );

  app.get(
    `${base}/:lb_id/lint`,
    {
      schema: {
        description:
          'Mistakes that save fine and answer wrong (README "Load-balancing linter"), in the order the checks run.',
        summary: 'What the linter finds in a load balancer',
        params: LoadBalancerParams,
        response: { 200: Type.Array(LintFindingResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => lint.loadBalancer(await request.owner(), request.params.zone_id, request.params.lb_id),
  );

  app.get(
    '/zones/:zone_id/lint',
    {
      schema: {
        description:
          'Every finding of the zone’s load balancers then pools, by id; each path starts with the object (`load_balancers.3.ttl`).',
        summary: 'What the linter finds in a zone’s load balancing',
        params: ZoneIdParams,
        response: { 200: Type.Array(LintFindingResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => lint.zone(await request.owner(), request.params.zone_id),
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
        summary:
          'How a query would be answered now (or after unsaved what_if changes), with the trace of the cascade',
        description:
          'what_if: {load_balancer?: <partial load balancer body>, pools?: {<pool_id>: <partial pool body>}, ' +
          'members?: {<member_id>: {enabled?, weight?, priority?}}, health?: {members?: {<id>: healthy|unhealthy}, ' +
          'pools?: {<id>: healthy|unhealthy}}}, checked like the real routes and never saved; the answer then adds ' +
          'baseline (the decision without it, same random draws) and changed.',
        params: LoadBalancerParams,
        body: WhatIfPreviewBody,
        response: { 200: WhatIfPreviewResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
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

  app.post(
    `${base}/:lb_id/preview/matrix`,
    {
      schema: {
        summary:
          'Where a what_if moves traffic: the pool of every region and of chosen countries, before and after',
        description:
          'One row per region (in region order) then per country (`countries`, default every country in the ' +
          'load balancer’s maps before or after, sorted): {location, before: {cascade_hit, pool}, after, moved}.',
        params: LoadBalancerParams,
        body: MatrixBody,
        response: { 200: MatrixResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
      },
      config: { optionalBody: true },
    },
    async (request) =>
      preview.matrix(await request.owner(), request.params.zone_id, request.params.lb_id, request.body ?? {}),
  );
}
