import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { ShopPaymentProviders } from '../checkout/shop-payment-providers.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { idParams, listOf } from '../shared/commerce-http-schemas.ts';
import { CanceledOrderResponse, FulfillmentResponse } from './fulfillment-view.ts';
import { FulfillmentsService, type FulfillmentStep } from './fulfillments-service.ts';
import { OrderCancelService } from './order-cancel-service.ts';

const FULFIL = { auth: { scope: 'commerce.fulfillment:write' } } as const;
/** Reading fulfilments is reading the order (the scope table: "orders with documents and fulfilments"). */
const READ = { auth: { scope: 'commerce.orders:read' } } as const;
/** Canceling refunds the payment: the scope table's "refund and cancel orders". */
const CANCEL = { auth: { scope: 'commerce.refunds:write' } } as const;

const NewFulfillmentBody = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        { item_id: Type.Integer({ minimum: 1 }), quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
    location_id: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
const TrackingBody = Type.Object(
  {
    tracking_number: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    tracking_url: Type.Optional(
      Type.String({ maxLength: 2000, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$' }),
    ),
  },
  { additionalProperties: false },
);

const STEPS: readonly [FulfillmentStep, string][] = [
  ['dispatched', 'Marks a fulfilment dispatched (packed and handed over; optional before shipped).'],
  ['delivered', 'Marks a shipped fulfilment delivered.'],
  ['canceled', 'Cancels a fulfilment not shipped yet: its units can be fulfilled again.'],
];

/**
 * Fulfilments of an order and the order's cancel (docs/commerce.md, "Fulfilment and cancel"),
 * base /api/v1/orgs/{org_slug}/commerce/orders/{order_id}.
 */
export function registerOrderFulfillmentRoutes(
  app: ModuleApp,
  ctx: CommerceContext,
  log: ShopEventLog,
  providers: ShopPaymentProviders,
): void {
  const fulfillments = new FulfillmentsService(ctx, log);
  const cancels = new OrderCancelService(ctx, log, providers);
  const base = '/:org_slug/commerce/orders/:order_id';
  const params = idParams('order_id');
  const one = idParams('order_id', 'fulfillment_id');
  app.get(
    `${base}/fulfillments`,
    {
      schema: {
        description: 'The order’s fulfilments, oldest first.',
        params,
        response: { 200: listOf('fulfillments', FulfillmentResponse) },
      },
      config: READ,
    },
    async (request) => ({
      fulfillments: await fulfillments.list(request.principal.orgId!, request.params.order_id),
    }),
  );
  app.post(
    `${base}/fulfillments`,
    {
      schema: {
        description: 'Fulfils quantities of the order’s items (no more than ordered and not yet fulfilled).',
        params,
        body: NewFulfillmentBody,
        response: { 201: FulfillmentResponse },
      },
      config: FULFIL,
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await fulfillments.create(request.principal.orgId!, request.params.order_id, request.body)),
  );
  app.post(
    `${base}/fulfillments/:fulfillment_id/shipped`,
    {
      schema: {
        description:
          'Marks a fulfilment shipped, with its tracking: its items’ reserved stock leaves the shelf.',
        params: one,
        body: TrackingBody,
        response: { 200: FulfillmentResponse },
      },
      config: { ...FULFIL, optionalBody: true },
    },
    async (request) =>
      fulfillments.mark(
        request.principal.orgId!,
        request.params.order_id,
        request.params.fulfillment_id,
        'shipped',
        request.body ?? {},
      ),
  );
  for (const [step, description] of STEPS)
    app.post(
      `${base}/fulfillments/:fulfillment_id/${step === 'canceled' ? 'cancel' : step}`,
      {
        schema: { description, params: one, response: { 200: FulfillmentResponse } },
        config: FULFIL,
      },
      async (request) =>
        fulfillments.mark(
          request.principal.orgId!,
          request.params.order_id,
          request.params.fulfillment_id,
          step,
        ),
    );
  app.post(
    `${base}/cancel`,
    {
      schema: {
        description: 'Cancels an order without fulfilments: releases its stock, refunds its payment in full.',
        params,
        response: { 200: CanceledOrderResponse },
      },
      config: CANCEL,
    },
    async (request) => cancels.cancel(request.principal.orgId!, request.params.order_id),
  );
}
