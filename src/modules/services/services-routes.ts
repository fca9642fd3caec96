import { Type } from 'typebox';
import { errorResponses } from '../../kernel/http/error-schemas.ts';
import { freeOrderBudget } from './services-budgets.ts';
import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import {
  EventsQuery,
  ListServices422,
  ListServicesQuery,
  OrderBody,
  ServiceEventResponse,
  ServiceParams,
  ServiceResponse,
} from './services-schemas.ts';
import type { ServicesService } from './services-service.ts';

/** The services registry (base /api/v1/services): order, list, read, cancel, events. */
export function registerServiceRoutes(app: ModuleApp, service: ServicesService): void {
  app.post(
    '/order',
    {
      schema: {
        summary: 'Order a service (free plans until billing exists)',
        body: OrderBody,
        response: { 201: ServiceResponse, ...errorResponses(401, 402, 403, 404, 409, 413, 415, 422, 429) },
      },
      config: { budget: freeOrderBudget, audit: 'services.service.order' },
    },
    async (request, reply) => {
      const ordered = await service.order(await request.owner(), request.body);
      // An order for an organization (org_slug) belongs in that organization's audit log.
      request.auditNote = { orgId: ordered.org_id, resourceId: ordered.id };
      return reply.code(201).send(ordered);
    },
  );

  app.get(
    '/',
    {
      schema: {
        summary: "The caller's services and their organizations', newest first",
        querystring: ListServicesQuery,
        response: { 200: Type.Array(ServiceResponse), ...errorResponses(401, 429), 422: ListServices422 },
      },
    },
    async (request) => service.list(await request.owner(), request.query),
  );

  app.get(
    '/:service_ref',
    {
      schema: {
        summary: 'One service, by id or `svc_<id>`',
        params: ServiceParams,
        response: { 200: ServiceResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.get(await request.owner(), request.params.service_ref),
  );

  app.post(
    '/:service_ref/cancel',
    {
      schema: {
        summary: 'Cancel a service: free plans end at once, priced ones at the end of their period',
        params: ServiceParams,
        response: { 200: ServiceResponse, ...errorResponses(401, 403, 404, 409, 422, 429) },
      },
      config: { optionalBody: true, audit: 'services.service.cancel' },
    },
    async (request) => {
      const cancelled = await service.cancel(await request.owner(), request.params.service_ref);
      request.auditNote = { orgId: cancelled.org_id, resourceId: cancelled.id };
      return cancelled;
    },
  );

  app.get(
    '/:service_ref/events',
    {
      schema: {
        summary: "A service's lifecycle events, newest first",
        params: ServiceParams,
        querystring: EventsQuery,
        response: { 200: Type.Array(ServiceEventResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      service.events(
        await request.owner(),
        request.params.service_ref,
        request.query.page,
        request.query.limit,
      ),
  );
}
