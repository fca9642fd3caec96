import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import {
  IdempotencyKeyHeader,
  idempotencyKeyOf,
  type IdempotentReplies,
} from '../../../kernel/http/idempotency.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  CustomerOrderBody,
  freeOrderBudget,
  OrderResponse,
  ServiceResponse,
  type OrderedService,
  type PortalCustomer,
} from '../../services/index.ts';
import { PortalServiceParams, PortalServicesQuery, PortalSlugParams } from './portal-services-schemas.ts';
import type { PortalServicesService } from './portal-services-service.ts';

/** The signed-in storefront customer: the `storefront` requirement checked the token is of this organization. */
function customerOf(request: FastifyRequest): PortalCustomer {
  const { orgId, userId } = request.principal;
  if (orgId === undefined || userId === undefined) throw new Error('portal route without a customer');
  return { orgId, customerId: userId };
}

/**
 * /orgs/{org_slug}/portal/services: an organization's storefront customer orders services and
 * reads the ones the organization holds for them (its owner's account holds them, the customer
 * is named on each).
 */
export function registerPortalServiceRoutes(
  app: ModuleApp,
  portal: PortalServicesService,
  replies: IdempotentReplies,
): void {
  app.post(
    '/:org_slug/portal/services/order',
    {
      schema: {
        summary: 'A storefront customer orders a service',
        description:
          'As `POST /services/order`, for the signed-in customer: the organization holds the service for them. ' +
          'A free plan is provisioned at once and counts against the customer’s `storefront.free_order` budget; ' +
          'a priced plan answers the service `pending` with `invoice_id`. The organization’s webhooks hear ' +
          '`order.created` `{service_id, customer_id, product_id, invoice_id}`. An `Idempotency-Key` header ' +
          'makes a retry answer the first order; the same key with another body is 409.',
        params: PortalSlugParams,
        body: CustomerOrderBody,
        headers: IdempotencyKeyHeader,
        response: { 201: OrderResponse, ...errorResponses(401, 402, 404, 409, 413, 415, 422, 429) },
      },
      config: { auth: 'storefront', budget: freeOrderBudget, audit: 'resellers.portal_service.order' },
    },
    async (request, reply) => {
      const customer = customerOf(request);
      const answer = await replies.run(
        { userId: customer.customerId, route: 'resellers.portal.order', key: idempotencyKeyOf(request) },
        request.body,
        async () => ({ status: 201, body: await portal.order(customer, request.body) }),
      );
      const serviceId = (answer.body as OrderedService).id;
      request.auditNote = {
        orgId: customer.orgId,
        resourceId: serviceId,
        serviceId,
        customerId: customer.customerId,
      };
      return reply.code(201).send(answer.body as OrderedService);
    },
  );

  app.get(
    '/:org_slug/portal/services',
    {
      schema: {
        summary: 'The signed-in customer’s services, newest first',
        description:
          'Newest first, ties broken on id (newest id first). `page`/`per_page` 50, at most 200; `status` ' +
          'one of the services’ statuses. `consistency=eventual` may answer from a cache a few seconds old.',
        params: PortalSlugParams,
        querystring: PortalServicesQuery,
        response: { 200: Type.Array(ServiceResponse), ...errorResponses(401, 422, 429) },
      },
      config: { auth: 'storefront' },
    },
    async (request) => portal.list(customerOf(request), request.query),
  );

  app.get(
    '/:org_slug/portal/services/:id',
    {
      schema: {
        summary: 'One of the signed-in customer’s services',
        description:
          'Another customer’s service, or one not held for a customer, is 404 `Service not found`.',
        params: PortalServiceParams,
        response: { 200: ServiceResponse, ...errorResponses(401, 404, 422, 429) },
      },
      config: { auth: 'storefront' },
    },
    async (request) => portal.get(customerOf(request), request.params.id),
  );
}
