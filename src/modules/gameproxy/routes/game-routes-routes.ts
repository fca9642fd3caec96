import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  AvailabilityBody,
  AvailabilityResponse,
  CreateRouteBody,
  NameSuggestionsBody,
  NameSuggestionsResponse,
  OrgQuery,
  PolicyResponse,
  RouteIdParams,
  RouteResponse,
  UpdateRouteBody,
} from './game-routes-schemas.ts';
import type { GameRoutesService } from './game-routes-service.ts';

/**
 * `/gameproxy/availability`, `/name-suggestions`, `/policy`, `/routes` and `/routes/{route_id}`
 * (docs/game-proxy.md; a main-site access token).
 */
export function registerGameRouteRoutes(app: ModuleApp, service: GameRoutesService): void {
  app.post(
    '/gameproxy/availability',
    {
      schema: {
        summary: 'Whether <subdomain>.<base_domain> can be taken, and why not (taken, reserved or invalid)',
        querystring: OrgQuery,
        body: AvailabilityBody,
        response: { 200: AvailabilityResponse, ...errorResponses(404) },
      },
      // A question, not a change: nothing to audit.
      config: { audit: false },
    },
    async (request) =>
      service.availability(
        request.principal,
        request.query.org_id,
        request.body.subdomain,
        request.body.base_domain,
      ),
  );

  app.post(
    '/gameproxy/name-suggestions',
    {
      schema: {
        summary: 'Readable names (brave-otter) free under the base domain when answered',
        querystring: OrgQuery,
        body: NameSuggestionsBody,
        response: { 200: NameSuggestionsResponse, ...errorResponses(404) },
      },
      config: { audit: false },
    },
    async (request) =>
      service.nameSuggestions(
        request.principal,
        request.query.org_id,
        request.body.count ?? 5,
        request.body.base_domain,
      ),
  );

  app.get(
    '/gameproxy/policy',
    {
      schema: {
        summary:
          'The base domains (in order: the first is the default), route limit, custom domain and PROXY protocol offer, status cache bounds',
        querystring: OrgQuery,
        response: { 200: PolicyResponse, ...errorResponses(404) },
      },
    },
    async (request) => service.policy(request.principal, request.query.org_id),
  );

  app.get(
    '/gameproxy/routes',
    {
      schema: {
        summary: 'The account’s own routes, or (org_id) the organization’s, oldest first',
        querystring: OrgQuery,
        response: { 200: Type.Array(RouteResponse), ...errorResponses(404) },
      },
    },
    async (request) => service.list(request.principal, request.query.org_id),
  );

  app.post(
    '/gameproxy/routes',
    {
      schema: {
        summary: 'Make a route: <subdomain>.<base_domain> on the game edge, to a game server',
        description:
          'A proxy route needs upstream_service_id (a game server service of the owner) or upstream_host ' +
          '(port 25565 unless upstream_port); a host that is or resolves to a private, loopback or reserved ' +
          'address is refused unless the deployment allows private upstreams. At most max_routes per ' +
          'account or organization (403 gameproxy.route_limit_reached); a taken address is 409.',
        body: CreateRouteBody,
        response: { 201: RouteResponse, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const route = await service.create(request.principal, request.body);
      request.auditNote = { orgId: route.org_id, resourceId: route.id };
      return reply.code(201).send(route);
    },
  );

  app.patch(
    '/gameproxy/routes/:route_id',
    {
      schema: {
        summary:
          'Change what the server list shows (MOTDs, favicon, version name), names and status cache TTL',
        description: 'null or a clear_* flag empties a field; a value and its clear_* flag together are 422.',
        params: RouteIdParams,
        body: UpdateRouteBody,
        response: { 200: RouteResponse, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const route = await service.update(request.principal, request.params.route_id, request.body);
      request.auditNote = { orgId: route.org_id, resourceId: route.id };
      return route;
    },
  );

  app.delete(
    '/gameproxy/routes/:route_id',
    {
      schema: {
        summary: 'Delete a route and its custom domain; the address is free at once',
        params: RouteIdParams,
        response: { 204: NoContent, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const route = await service.delete(request.principal, request.params.route_id);
      request.auditNote = { orgId: route.org_id, resourceId: route.id };
      return reply.code(204).send();
    },
  );
}
