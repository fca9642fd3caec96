import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { idParams } from '../shared/commerce-http-schemas.ts';
import { STOREFRONT, storeKeyScopeOf } from '../storefront/storefront-info-routes.ts';
import type { CartCompletion } from './cart-completion.ts';
import {
  CompleteBody,
  CompleteHeaders,
  CompleteResponse,
  PaymentSessionBody,
  PaymentSessionResponse,
} from './checkout-schemas.ts';
import { addressPaymentBudget, cartPaymentBudget } from './payment-budgets.ts';
import type { PaymentSessionsService } from './payment-sessions-service.ts';

/** Payment sessions and completion of the Store API's carts (docs/commerce.md, "Checkout"). */
export function registerCheckoutRoutes(
  app: ModuleApp,
  sessions: PaymentSessionsService,
  completion: CartCompletion,
): void {
  const cart = idParams('cart_id');
  // Counted by the services once the cart is known to be the caller's (countedBy: 'handler').
  const config = { ...STOREFRONT, budget: [cartPaymentBudget, addressPaymentBudget] };
  app.post(
    '/:org_slug/store/carts/:cart_id/payment-sessions',
    {
      config,
      schema: {
        summary: 'Starts the cart’s payment at a provider, or refreshes the one started for the same amount',
        params: cart,
        body: PaymentSessionBody,
        response: { 200: PaymentSessionResponse, ...errorResponses(401, 404, 409, 422, 429, 502) },
      },
    },
    async (request) =>
      sessions.start(storeKeyScopeOf(request), request.params.cart_id, request.body, request.ip),
  );
  app.post(
    '/:org_slug/store/carts/:cart_id/complete',
    {
      config,
      schema: {
        summary: 'Places the order: stock reserved, payment captured, order and event in one transaction',
        params: cart,
        headers: CompleteHeaders,
        body: CompleteBody,
        response: { 200: CompleteResponse, ...errorResponses(401, 402, 404, 409, 422, 429, 502) },
      },
    },
    async (request) =>
      completion.complete(
        storeKeyScopeOf(request),
        request.params.cart_id,
        request.body ?? {},
        request.headers['idempotency-key'] ?? null,
        request.ip,
      ),
  );
}
