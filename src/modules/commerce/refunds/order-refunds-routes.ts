import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { idParams, listOf } from '../shared/commerce-http-schemas.ts';
import { actorOf } from './change-audit.ts';
import type { OrderRefundsService } from './order-refunds-service.ts';
import { RefundResponse } from './refund-view.ts';

/** The scope table's "refund and cancel orders; refund returns". */
const REFUND = { auth: { scope: 'commerce.refunds:write' }, audit: false } as const;
const READ = { auth: { scope: 'commerce.orders:read' } } as const;

const NewRefundBody = Type.Object(
  {
    amount: Type.Number({
      minimum: 0,
      maximum: 1e12,
      description: 'major units of the order’s currency; at most captured minus refunded',
    }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

/** Refunds of an order (docs/commerce.md, "Returns and refunds"), base .../commerce/orders/{order_id}. */
export function registerOrderRefundRoutes(app: ModuleApp, service: OrderRefundsService): void {
  const base = '/:org_slug/commerce/orders/:order_id/refunds';
  const params = idParams('order_id');
  app.get(
    base,
    {
      schema: {
        description: 'The order’s refunds (its cancel’s, its returns’, amounts), oldest first.',
        params,
        response: { 200: listOf('refunds', RefundResponse) },
      },
      config: READ,
    },
    async (request) => ({ refunds: await service.list(request.principal.orgId!, request.params.order_id) }),
  );
  app.post(
    base,
    {
      schema: {
        description:
          'Refunds an amount of the order through its payments (providers first, then gift cards); never ' +
          'more than captured minus refunded.',
        params,
        body: NewRefundBody,
        response: { 201: RefundResponse },
      },
      config: REFUND,
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await service.create(
            request.principal.orgId!,
            request.params.order_id,
            request.body,
            actorOf(request),
          ),
        ),
  );
}
