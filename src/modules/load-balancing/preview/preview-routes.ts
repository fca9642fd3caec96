import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { LoadBalancerParams } from '../shared/load-balancer-params.ts';
import type { LoadBalancerPreviewService } from './lb-preview-service.ts';
import { TrafficShareQuery, TrafficShareResponse } from './preview-schemas.ts';
import {
  MatrixBody,
  MatrixResponse,
  WhatIfPreviewBody,
  WhatIfPreviewResponse,
  WhatIfTrafficShareBody,
} from './what-if-schemas.ts';

/**
 * How a load balancer answers, computed and never saved: the preview (with a what_if), the what-if
 * matrix over regions and countries, and the exact traffic shares.
 */
export function registerPreviewRoutes(app: ModuleApp, preview: LoadBalancerPreviewService): void {
  const base = '/zones/:zone_id/load-balancers';

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
