import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { beforeIdQuery, limitOffsetQuery } from '../../../kernel/paging/paging.ts';
import type { GiftCardView, OrderView, ProductView } from './commerce-list-views.ts';

/** Promotions are listed as the promotions feature shows one (its fields extend the list's). */
export { PromotionResponse } from '../promotions/promotion-view.ts';

export const OrgSlugParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * Orders: `limit` 50/200, `offset`, `q` on order number and e-mail, `placed_from`, `placed_to`
 * (excluded).
 */
export const OrdersQuery = Type.Object({
  ...limitOffsetQuery(50, 200).properties,
  q: Type.Optional(Type.String({ maxLength: 200 })),
  placed_from: Type.Optional(Type.String({ format: 'date-time' })),
  placed_to: Type.Optional(Type.String({ format: 'date-time' })),
});
export const ProductsQuery = limitOffsetQuery(50, 200);
export const BeforeIdQuery = beforeIdQuery(50, 200);

const Money = Type.String({ description: 'decimal, as text' });

export const OrderResponse = describes<OrderView>()(
  Type.Object({
    id: Type.Integer(),
    order_number: Type.String(),
    email: Nullable(Type.String()),
    customer_id: Nullable(Type.Integer()),
    status: Type.String(),
    currency: Type.String(),
    total: Money,
    placed_at: Type.String(),
    created_at: Type.String(),
  }),
);
export const ProductResponse = describes<ProductView>()(
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    handle: Type.String(),
    status: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);
export const GiftCardResponse = describes<GiftCardView>()(
  Type.Object({
    id: Type.Integer(),
    code_last4: Type.String(),
    balance: Money,
    currency: Type.String(),
    status: Type.String(),
    created_at: Type.String(),
  }),
);

export const offsetPage = <T extends ReturnType<typeof Type.Object>>(name: string, item: T) =>
  Type.Object({
    [name]: Type.Array(item),
    count: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  });

export const beforeIdPage = <T extends ReturnType<typeof Type.Object>>(name: string, item: T) =>
  Type.Object({ [name]: Type.Array(item), next_before_id: Type.Union([Type.Integer(), Type.Null()]) });
