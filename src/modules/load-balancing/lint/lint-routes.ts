import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { ZoneIdParams } from '../../dns/index.ts';
import { LoadBalancerParams } from '../shared/load-balancer-params.ts';
import type { LoadBalancingLintService } from './lb-lint-service.ts';
import { LintFindingResponse } from './lint-schemas.ts';

/** What the linter finds in one load balancer, and in a zone's whole load balancing. */
export function registerLintRoutes(app: ModuleApp, lint: LoadBalancingLintService): void {
  const base = '/zones/:zone_id/load-balancers';

  app.get(
    `${base}/:lb_id/lint`,
    {
      schema: {
        description:
          'Mistakes that save fine and answer wrong (docs/dns-and-load-balancing.md, "Load balancing"), in the order the checks run.',
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
          'Every finding of the zone’s load balancers then pools, in id order; each path starts with the object (`load_balancers.3.ttl`).',
        summary: 'What the linter finds in a zone’s load balancing',
        params: ZoneIdParams,
        response: { 200: Type.Array(LintFindingResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => lint.zone(await request.owner(), request.params.zone_id),
  );
}
