import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { CartEnvelope } from '../carts/cart-schemas.ts';
import { idParams, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import { STOREFRONT, storeKeyScopeOf } from '../storefront/storefront-info-routes.ts';
import { addressGiftCardBudget, cartGiftCardBudget } from './gift-card-budgets.ts';
import {
  AdjustGiftCardBody,
  ApplyGiftCardBody,
  GiftCardDetailResponse,
  GiftCardWithTransactionsResponse,
  IssuedGiftCardResponse,
  IssueGiftCardBody,
  UpdateGiftCardBody,
} from './gift-card-schemas.ts';
import type { CartGiftCardsService } from './cart-gift-cards-service.ts';
import type { GiftCardsService } from './gift-cards-service.ts';

/** Issuing and changing gift cards is the promotions' scope; reading them, the customers' (as the list). */
const WRITE = { auth: { scope: 'commerce.promotions:write' } } as const;
const READ = { auth: { scope: 'commerce.customers:read' } } as const;

/**
 * Gift cards (docs/commerce.md, "Gift cards"): the Commerce API's (base
 * /api/v1/orgs/{org_slug}/commerce/gift-cards; the list is the lists' route) and the Store API's
 * cart routes (base /api/v1/orgs/{org_slug}/store/carts/{cart_id}/gift-cards).
 */
export function registerGiftCardRoutes(
  app: ModuleApp,
  cards: GiftCardsService,
  carts: CartGiftCardsService,
): void {
  const base = '/:org_slug/commerce/gift-cards';
  const one = idParams('gift_card_id');
  app.post(
    base,
    {
      config: WRITE,
      schema: {
        summary: 'Issues a gift card; its code is answered this once',
        params: OrgSlugParams,
        body: IssueGiftCardBody,
        response: { 201: IssuedGiftCardResponse },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await cards.create(request.principal.orgId!, request.body)),
  );
  app.get(
    `${base}/:gift_card_id`,
    {
      config: READ,
      schema: {
        summary: 'Reads a gift card with the transactions of its balance, oldest first (never its code)',
        params: one,
        response: { 200: GiftCardWithTransactionsResponse },
      },
    },
    async (request) => cards.get(request.principal.orgId!, request.params.gift_card_id),
  );
  app.patch(
    `${base}/:gift_card_id`,
    {
      config: WRITE,
      schema: { params: one, body: UpdateGiftCardBody, response: { 200: GiftCardDetailResponse } },
    },
    async (request) => cards.update(request.principal.orgId!, request.params.gift_card_id, request.body),
  );
  app.post(
    `${base}/:gift_card_id/adjust`,
    {
      config: WRITE,
      schema: {
        summary: 'Adds to or takes from the balance (never below 0), as one transaction of the card',
        params: one,
        body: AdjustGiftCardBody,
        response: { 200: GiftCardDetailResponse },
      },
    },
    async (request) =>
      cards.adjust(
        request.principal.orgId!,
        request.params.gift_card_id,
        request.body.amount,
        request.body.note ?? null,
      ),
  );

  const cartBase = '/:org_slug/store/carts/:cart_id/gift-cards';
  app.post(
    cartBase,
    {
      // Counted by the service once the cart is known to be the caller's (countedBy: 'handler').
      config: { ...STOREFRONT, budget: [cartGiftCardBudget, addressGiftCardBudget] },
      schema: {
        summary: 'Applies a gift card by its code; one 404 for any code that cannot pay on this cart',
        params: idParams('cart_id'),
        body: ApplyGiftCardBody,
        response: { 200: CartEnvelope, ...errorResponses(401, 404, 409, 422, 429) },
      },
    },
    async (request) =>
      carts.apply(storeKeyScopeOf(request), request.params.cart_id, request.body.code, request.ip),
  );
  app.delete(
    `${cartBase}/:gift_card_id`,
    {
      config: STOREFRONT,
      schema: {
        summary: 'Removes a gift card from the cart',
        params: idParams('cart_id', 'gift_card_id'),
        response: { 200: CartEnvelope, ...errorResponses(401, 404, 409, 422, 429) },
      },
    },
    async (request) =>
      carts.remove(storeKeyScopeOf(request), request.params.cart_id, request.params.gift_card_id),
  );
}
