import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { promotionView } from '../promotions/promotion-view.ts';
import type { PromotionRow } from '../promotions/promotions-repository.ts';
import { listedView, orderView, productView } from './commerce-list-views.ts';
import type { CommerceListsRepository } from './commerce-lists-repository.ts';
import {
  BeforeIdQuery,
  beforeIdPage,
  GiftCardResponse,
  offsetPage,
  OrderResponse,
  OrdersQuery,
  OrgSlugParams,
  ProductResponse,
  ProductsQuery,
  PromotionResponse,
} from './commerce-lists-schemas.ts';

/**
 * Four of the Commerce API's five lists (the events list is the events feature's) (docs/keys-and-limits.md, "The Commerce API"): orders and products
 * paged by `limit`/`offset` with a total `count`; promotions and gift cards by `before_id`
 * with `next_before_id` (null at the end). Each route needs its scope (docs/keys-and-limits.md,
 * "Scopes").
 */
export function registerCommerceListRoutes(app: ModuleApp, repo: CommerceListsRepository): void {
  app.get(
    '/:org_slug/commerce/orders',
    {
      schema: {
        description: 'Orders, newest placed first, ties by id (newest first).',
        params: OrgSlugParams,
        querystring: OrdersQuery,
        response: { 200: offsetPage('orders', OrderResponse) },
      },
      config: { auth: { scope: 'commerce.orders:read' } },
    },
    async (request) => {
      const { limit, offset, q, placed_from, placed_to } = request.query;
      const page = await repo.orders(
        request.principal.orgId!,
        {
          ...(q !== undefined ? { q } : {}),
          ...(placed_from !== undefined ? { placedFrom: new Date(placed_from) } : {}),
          ...(placed_to !== undefined ? { placedTo: new Date(placed_to) } : {}),
        },
        limit,
        offset,
      );
      return {
        orders: page.rows.map(orderView),
        count: page.count,
        limit,
        offset,
      };
    },
  );

  app.get(
    '/:org_slug/commerce/products',
    {
      schema: {
        description: 'Products, most recently changed first, ties by id.',
        params: OrgSlugParams,
        querystring: ProductsQuery,
        response: { 200: offsetPage('products', ProductResponse) },
      },
      config: { auth: { scope: 'commerce.catalog:read' } },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const page = await repo.products(request.principal.orgId!, limit, offset);
      return {
        products: page.rows.map(productView),
        count: page.count,
        limit,
        offset,
      };
    },
  );

  const byBeforeId = [
    ['promotions', 'commerce_promotions', 'commerce.promotions:write', PromotionResponse],
    ['gift-cards', 'commerce_gift_cards', 'commerce.customers:read', GiftCardResponse],
  ] as const;
  for (const [path, table, scope, view] of byBeforeId) {
    const name = path.replace('-', '_');
    app.get(
      `/:org_slug/commerce/${path}`,
      {
        schema: {
          description: `${path}, newest first; page with before_id = the previous page's next_before_id.`,
          params: OrgSlugParams,
          querystring: BeforeIdQuery,
          response: { 200: beforeIdPage(name, view as typeof PromotionResponse) },
        },
        config: { auth: { scope } },
      },
      async (request): Promise<never> => {
        const { before_id, limit } = request.query;
        const page = await repo.beforeId(table, request.principal.orgId!, before_id, limit);
        const items = page.rows.map((r) =>
          table === 'commerce_promotions' ? promotionView(r as PromotionRow) : listedView(r),
        );
        return { [name]: items, next_before_id: page.more ? items[items.length - 1]!.id : null } as never;
      },
    );
  }
}
