import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { linkBudget, verifyBudget } from './custom-domain-budgets.ts';
import { CustomDomainResponse } from './custom-domains-schemas.ts';
import type { CustomDomainsService } from './custom-domains-service.ts';

const BASE = '/gameproxy/routes/:route_id/custom-domain';

const RouteParams = Type.Object({ route_id: Type.Integer({ minimum: 1 }) });

const LinkBody = Type.Object(
  {
    domain: Type.String({ minLength: 1, maxLength: 253, description: 'example.com' }),
    subdomain: Type.Optional(
      Nullable(Type.String({ maxLength: 253, description: 'The label(s) under domain (play), or none' })),
    ),
    include_in_list: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** `/gameproxy/routes/{route_id}/custom-domain` (GET, POST, PATCH, DELETE) and `.../verify`. */
export function registerCustomDomainRoutes(app: ModuleApp, service: CustomDomainsService): void {
  app.get(
    BASE,
    {
      schema: {
        description: 'The route’s custom domain.',
        params: RouteParams,
        response: { 200: CustomDomainResponse, ...errorResponses(404) },
      },
    },
    async (request) => service.get(request.principal, request.params.route_id),
  );
  app.post(
    BASE,
    {
      schema: {
        description:
          'Links a custom domain to the route: verified at once in a zone of the caller’s hosted here (the CNAME published), else pending until a CNAME to cname_target is found.',
        params: RouteParams,
        body: LinkBody,
        response: { 201: CustomDomainResponse, ...errorResponses(403, 404, 409) },
      },
      config: { budget: linkBudget },
    },
    async (request, reply) =>
      reply.code(201).send(await service.link(request.principal, request.params.route_id, request.body)),
  );
  app.patch(
    BASE,
    {
      schema: {
        description: 'Whether the custom domain is shown in the route’s listing.',
        params: RouteParams,
        body: Type.Object({ include_in_list: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: CustomDomainResponse, ...errorResponses(404) },
      },
    },
    async (request) =>
      service.setIncludeInList(request.principal, request.params.route_id, request.body.include_in_list),
  );
  app.delete(
    BASE,
    {
      schema: {
        description: 'Unlinks the custom domain (and removes the CNAME published for it here, if any).',
        params: RouteParams,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.unlink(request.principal, request.params.route_id);
      return reply.code(204).send();
    },
  );
  app.post(
    `${BASE}/verify`,
    {
      schema: {
        description: 'Checks the custom domain’s CNAME now; answers the domain with its new status.',
        params: RouteParams,
        response: { 200: CustomDomainResponse, ...errorResponses(404) },
      },
      config: { budget: verifyBudget },
    },
    async (request) => service.verify(request.principal, request.params.route_id),
  );
}
