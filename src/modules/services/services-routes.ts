import { Type } from 'typebox';
import { errorResponses } from '../../kernel/http/error-schemas.ts';
import { freeOrderBudget } from './services-budgets.ts';
import {
  IdempotencyKeyHeader,
  idempotencyKeyOf,
  type IdempotentReplies,
} from '../../kernel/http/idempotency.ts';
import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import {
  EventsQuery,
  ListServices422,
  ListServicesQuery,
  OrderBody,
  OrderResponse,
  ServiceEventResponse,
  ServiceParams,
  ServiceResponse,
} from './services-schemas.ts';
import type { OrderedService, ServicesService } from './services-service.ts';

/** The services registry (base /api/v1/services): order, list, read, cancel, events. */
export function registerServiceRoutes(
  app: ModuleApp,
  service: ServicesService,
  replies: IdempotentReplies,
): void {
  app.post(
    '/order',
    {
      schema: {
        summary: 'Order a service',
        description:
          'A free plan is provisioned at once. A priced plan answers 201 with the service `pending` and ' +
          '`invoice_id`, an `unpaid` invoice due now; the service is provisioned once that invoice is paid ' +
          '(`POST /billing/invoices/{id}/pay`). 402 when this deployment does not bill. An `Idempotency-Key` ' +
          'header makes a retry answer the first order; the same key with another body is 409.',
        body: OrderBody,
        headers: IdempotencyKeyHeader,
        response: { 201: OrderResponse, ...errorResponses(401, 402, 403, 404, 409, 413, 415, 422, 429) },
      },
      config: { budget: freeOrderBudget, audit: 'services.service.order' },
    },
    async (request, reply) => {
      const owner = await request.owner();
      const answer = await replies.run(
        { userId: owner.userId, route: 'services.order', key: idempotencyKeyOf(request) },
        request.body,
        async () => ({ status: 201, body: await service.order(owner, request.body) }),
      );
      const ordered = answer.body as { id: number; org_id: number | null; customer_id?: number | null };
      // An order for an organization (org_slug) belongs in that organization's audit log.
      request.auditNote = {
        orgId: ordered.org_id,
        resourceId: ordered.id,
        serviceId: ordered.id,
        customerId: ordered.customer_id ?? null,
      };
      // Only a 201 is kept: an error releases the key.
      return reply.code(201).send(answer.body as OrderedService);
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
      request.auditNote = {
        orgId: cancelled.org_id,
        resourceId: cancelled.id,
        serviceId: cancelled.id,
        customerId: cancelled.customer_id ?? null,
      };
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
