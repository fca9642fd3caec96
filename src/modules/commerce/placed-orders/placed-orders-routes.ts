import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { idParams } from '../shared/commerce-http-schemas.ts';
import { STOREFRONT, StoreOrgParams } from '../storefront/storefront-info-routes.ts';
import { orderLookupBudget } from './order-lookup-budget.ts';
import { PlacedOrderResponse } from './placed-order-view.ts';
import type { PlacedOrdersService } from './placed-orders-service.ts';

const OrderReadQuery = Type.Object({
  token: Type.Optional(
    Type.String({
      maxLength: 512,
      description: 'the order’s access token (from the cart’s completion or an order lookup)',
    }),
  ),
});

const LookupBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320, description: 'the order’s e-mail, in any case' }),
  order_number: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ minLength: 1, maxLength: 12 })], {
    description: 'the order’s display id: `1001`, `"1001"` or `"#1001"`',
  }),
});

const LookupResponse = Type.Object({
  order: PlacedOrderResponse,
  access_token: Type.String({ description: 'a fresh token for `GET .../store/orders/{order_id}?token=`' }),
});

/** A shopper's order (docs/commerce.md, "Placed orders"): its read by token, and its lookup. */
export function registerPlacedOrderRoutes(app: ModuleApp, service: PlacedOrdersService): void {
  app.get(
    '/:org_slug/store/orders/:order_id',
    {
      config: STOREFRONT,
      schema: {
        summary: 'One order, opened by its access token',
        description:
          'The order of the calling key’s shop and mode that the token opens. A missing or wrong token, ' +
          'another order’s token and an unknown order all answer the same 404.',
        params: idParams('order_id'),
        querystring: OrderReadQuery,
        response: { 200: PlacedOrderResponse, ...errorResponses(404) },
      },
    },
    async (request) => service.read(request.principal, request.params.order_id, request.query.token),
  );
  app.post(
    '/:org_slug/store/orders/lookup',
    {
      config: { ...STOREFRONT, budget: orderLookupBudget },
      schema: {
        summary: 'Finds an order by e-mail and order number',
        description:
          'Answers the order and a fresh access token when both match an order of the calling key’s ' +
          'shop and mode; otherwise 404. 10 lookups a minute per client address.',
        params: StoreOrgParams,
        body: LookupBody,
        response: { 200: LookupResponse, ...errorResponses(404, 429) },
      },
    },
    async (request) => service.lookup(request.principal, request.body.email, request.body.order_number),
  );
}
