import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { CartEnvelope } from './cart-schemas.ts';
import { idParams } from '../shared/commerce-http-schemas.ts';
import { STOREFRONT, storeKeyScopeOf } from '../storefront/storefront-info-routes.ts';
import type { CartPromotionsService } from './cart-promotions-service.ts';
import { CartCodeBody, CartCodeQuery } from '../promotions/promotions-schemas.ts';

const ERRORS = errorResponses(401, 404, 409, 422, 429);

/** A shopper's promotion codes on a cart (docs/commerce.md, "Promotions"), with the publishable key. */
export function registerCartPromotionRoutes(app: ModuleApp, service: CartPromotionsService): void {
  const path = '/:org_slug/store/carts/:cart_id/promotions';
  const params = idParams('cart_id');
  app.post(
    path,
    {
      config: STOREFRONT,
      schema: {
        summary: 'Applies a promotion code (any case); a code that cannot apply answers 422 naming `code`',
        params,
        body: CartCodeBody,
        response: { 200: CartEnvelope, ...ERRORS },
      },
    },
    async (request) => ({
      cart: await service.apply(storeKeyScopeOf(request), request.params.cart_id, request.body.code),
    }),
  );
  app.delete(
    path,
    {
      config: { ...STOREFRONT, optionalBody: true },
      schema: {
        summary: 'Removes a promotion code, given in the JSON body or the query (`code`)',
        params,
        querystring: CartCodeQuery,
        body: CartCodeQuery,
        response: { 200: CartEnvelope, ...ERRORS },
      },
    },
    async (request) => ({
      cart: await service.remove(
        storeKeyScopeOf(request),
        request.params.cart_id,
        request.body?.code ?? request.query.code,
      ),
    }),
  );
}
