import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { idParams, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import { STOREFRONT, storeKeyScopeOf } from '../storefront/storefront-info-routes.ts';
import {
  CartEnvelope,
  CreateCartBody,
  LineDeleted,
  LineItemBody,
  LineQuantityBody,
  OfferedOptionResponse,
  PaymentProvidersResponse,
  ShippingMethodBody,
  UpdateCartBody,
} from './cart-schemas.ts';
import type { CartsService } from './carts-service.ts';

const READ_ERRORS = errorResponses(401, 404, 422, 429);
const WRITE_ERRORS = errorResponses(401, 404, 409, 422, 429);

/**
 * The Store API's carts (docs/commerce.md, "Carts"), called with a publishable key: a cart lives
 * in the key's organization, sales channel and mode, and is not found by any other key. Answers
 * `{cart}` as Medusa's Store API does.
 */
export function registerStoreCartRoutes(app: ModuleApp, carts: CartsService): void {
  const base = '/:org_slug/store/carts';
  const cart = idParams('cart_id');
  const line = idParams('cart_id', 'line_id');
  app.post(
    base,
    {
      config: STOREFRONT,
      schema: {
        summary: 'Creates a cart in the key’s sales channel and mode, in a region and its currency',
        params: OrgSlugParams,
        body: CreateCartBody,
        response: { 201: CartEnvelope, ...WRITE_ERRORS },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ cart: await carts.create(storeKeyScopeOf(request), request.body) }),
  );
  app.get(
    `${base}/:cart_id`,
    { config: STOREFRONT, schema: { params: cart, response: { 200: CartEnvelope, ...READ_ERRORS } } },
    async (request) => ({ cart: await carts.get(storeKeyScopeOf(request), request.params.cart_id) }),
  );
  app.patch(
    `${base}/:cart_id`,
    {
      config: STOREFRONT,
      schema: {
        summary: 'Changes the cart; a new region or country re-prices every line',
        params: cart,
        body: UpdateCartBody,
        response: { 200: CartEnvelope, ...WRITE_ERRORS },
      },
    },
    async (request) => ({
      cart: await carts.update(storeKeyScopeOf(request), request.params.cart_id, request.body),
    }),
  );
  registerLineRoutes(app, carts, cart, line);
  registerCheckoutRoutes(app, carts, cart);
}

function registerLineRoutes(
  app: ModuleApp,
  carts: CartsService,
  cart: ReturnType<typeof idParams<'cart_id'>>,
  line: ReturnType<typeof idParams<'cart_id' | 'line_id'>>,
): void {
  const base = '/:org_slug/store/carts/:cart_id/line-items';
  app.post(
    base,
    {
      config: STOREFRONT,
      schema: {
        summary: 'Adds a variant; the same variant with the same metadata adds to its line',
        params: cart,
        body: LineItemBody,
        response: { 200: CartEnvelope, ...WRITE_ERRORS },
      },
    },
    async (request) => ({
      cart: await carts.addLine(storeKeyScopeOf(request), request.params.cart_id, request.body),
    }),
  );
  app.patch(
    `${base}/:line_id`,
    {
      config: STOREFRONT,
      schema: {
        summary: 'Sets a line’s quantity; 0 removes the line',
        params: line,
        body: LineQuantityBody,
        response: { 200: CartEnvelope, ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const { cart_id, line_id } = request.params;
      return {
        cart: await carts.setLineQuantity(storeKeyScopeOf(request), cart_id, line_id, request.body.quantity),
      };
    },
  );
  app.delete(
    `${base}/:line_id`,
    { config: STOREFRONT, schema: { params: line, response: { 200: LineDeleted, ...WRITE_ERRORS } } },
    async (request) => {
      const { cart_id, line_id } = request.params;
      const parent = await carts.deleteLine(storeKeyScopeOf(request), cart_id, line_id);
      return { id: line_id, object: 'line-item' as const, deleted: true, parent };
    },
  );
}

function registerCheckoutRoutes(
  app: ModuleApp,
  carts: CartsService,
  cart: ReturnType<typeof idParams<'cart_id'>>,
): void {
  const base = '/:org_slug/store/carts/:cart_id';
  app.get(
    `${base}/shipping-options`,
    {
      config: STOREFRONT,
      schema: {
        summary:
          'The shipping options the cart may use, priced for it, each naming its shipping profile; oldest first',
        params: cart,
        response: {
          200: Type.Object({ shipping_options: Type.Array(OfferedOptionResponse) }),
          ...READ_ERRORS,
        },
      },
    },
    async (request) => ({
      shipping_options: await carts.shippingOptions(storeKeyScopeOf(request), request.params.cart_id),
    }),
  );
  app.post(
    `${base}/shipping-methods`,
    {
      config: STOREFRONT,
      schema: {
        summary: 'Chooses a shipping option; it replaces the method its shipping profile had',
        params: cart,
        body: ShippingMethodBody,
        response: { 200: CartEnvelope, ...WRITE_ERRORS },
      },
    },
    async (request) => ({
      cart: await carts.addShippingMethod(
        storeKeyScopeOf(request),
        request.params.cart_id,
        request.body.option_id,
      ),
    }),
  );
  app.get(
    `${base}/payment-providers`,
    {
      config: STOREFRONT,
      schema: {
        summary:
          'The payment providers of the cart’s region in the region’s order, and whether the cart needs a payment',
        params: cart,
        response: { 200: PaymentProvidersResponse, ...READ_ERRORS },
      },
    },
    async (request) => carts.paymentProviders(storeKeyScopeOf(request), request.params.cart_id),
  );
}
