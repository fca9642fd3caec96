import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { PromotionOnCartResponse } from '../promotions/promotion-view.ts';
import { CurrencyCode, Metadata } from '../shared/commerce-http-schemas.ts';
import type { CartView, OfferedOptionView } from './cart-view.ts';

const Id = Type.Integer({ minimum: 1 });
const Country = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 (DE, fr)' });
const Line = Type.String({ maxLength: 200 });
const Email = Type.String({ format: 'email', maxLength: 254 });
const Locale = Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47 tag (de-DE)' });

/** An address as Medusa's storefronts send it; its `country_code` sets the cart's country. */
const Address = Type.Object(
  {
    first_name: Type.Optional(Nullable(Line)),
    last_name: Type.Optional(Nullable(Line)),
    company: Type.Optional(Nullable(Line)),
    address_1: Type.Optional(Nullable(Line)),
    address_2: Type.Optional(Nullable(Line)),
    city: Type.Optional(Nullable(Line)),
    province: Type.Optional(Nullable(Line)),
    postal_code: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
    country_code: Type.Optional(Nullable(Country)),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

const Quantity = Type.Integer({ minimum: 1, maximum: 10_000 });
export const LineItemBody = Type.Object(
  {
    variant_id: Id,
    quantity: Type.Optional({ ...Quantity, description: 'default 1' }),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const CreateCartBody = Type.Object(
  {
    region_id: Type.Optional(Nullable(Id)),
    country_code: Type.Optional(Nullable(Country)),
    currency_code: Type.Optional(Nullable(CurrencyCode)),
    email: Type.Optional(Nullable(Email)),
    sales_channel_id: Type.Optional(Nullable({ ...Id, description: 'the key’s own, or null' })),
    locale: Type.Optional(Nullable(Locale)),
    metadata: Type.Optional(Metadata),
    items: Type.Optional(Type.Array(LineItemBody, { maxItems: 100 })),
  },
  { additionalProperties: false },
);

export const UpdateCartBody = Type.Object(
  {
    email: Type.Optional(Nullable(Email)),
    shipping_address: Type.Optional(Nullable(Address)),
    billing_address: Type.Optional(Nullable(Address)),
    region_id: Type.Optional(Id),
    country_code: Type.Optional(Nullable(Country)),
    note: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    locale: Type.Optional(Nullable(Locale)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const LineQuantityBody = Type.Object(
  { quantity: Type.Integer({ minimum: 0, maximum: 10_000, description: '0 removes the line' }) },
  { additionalProperties: false },
);

export const ShippingMethodBody = Type.Object({ option_id: Id }, { additionalProperties: false });

const Json = Type.Record(Type.String(), Type.Unknown());
const LineItemResponse = Type.Object({
  id: Type.Integer(),
  variant_id: Nullable(Type.Integer()),
  product_id: Nullable(Type.Integer()),
  title: Type.String({ description: 'the product’s title' }),
  variant_title: Type.String(),
  sku: Nullable(Type.String()),
  quantity: Type.Integer(),
  unit_price: Type.Number(),
  subtotal: Type.Number({ description: 'unit_price × quantity' }),
  discount_total: Type.Number({ description: 'what promotions take off this line' }),
  metadata: Json,
  shipping_profile_id: Nullable(Type.Integer()),
  requires_shipping: Type.Boolean(),
});
const ShippingMethodResponse = Type.Object({
  id: Type.Integer(),
  shipping_option_id: Nullable(Type.Integer()),
  shipping_profile_id: Type.Integer(),
  name: Type.String(),
  amount: Type.Number(),
  created_at: Type.String(),
});

export const CartResponse = describes<CartView>()(
  Type.Object({
    id: Type.Integer(),
    sales_channel_id: Type.Integer(),
    mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    region_id: Nullable(Type.Integer()),
    currency_code: Type.String(),
    email: Nullable(Type.String()),
    country_code: Nullable(Type.String()),
    locale: Nullable(Type.String()),
    note: Nullable(Type.String()),
    shipping_address: Nullable(Json),
    billing_address: Nullable(Json),
    metadata: Json,
    items: Type.Array(LineItemResponse),
    shipping_methods: Type.Array(ShippingMethodResponse),
    subtotal: Type.Number({
      description: 'the items at their prices (tax included where prices include it)',
    }),
    shipping_total: Type.Number(),
    tax_total: Type.Number({ description: 'the tax included in, or added to, items and shipping' }),
    discount_total: Type.Number({ description: 'the lines’ discounts; taxes apply to what is left' }),
    total: Type.Number({
      description: 'subtotal − discount_total + shipping_total (+ tax_total when added)',
    }),
    promotions: Type.Array(PromotionOnCartResponse),
    gift_cards: Type.Array(
      Type.Object({
        id: Type.Integer(),
        code_last4: Type.String(),
        amount: Type.Number({ description: 'what this card pays of the total' }),
      }),
      { description: 'the gift cards applied, first applied first' },
    ),
    gift_card_total: Type.Number({ description: 'what the gift cards pay; the rest is the payment’s' }),
    completed_at: Nullable(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);
export const CartEnvelope = Type.Object({ cart: CartResponse });
export const LineDeleted = Type.Object({
  id: Type.Integer(),
  object: Type.Literal('line-item'),
  deleted: Type.Boolean(),
  parent: CartResponse,
});

export const OfferedOptionResponse = describes<OfferedOptionView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    region_id: Type.Integer(),
    shipping_profile_id: Type.Integer({ description: 'the profile whose items it ships' }),
    price_type: Type.Union([Type.Literal('flat'), Type.Literal('weight')]),
    amount: Type.Number({ description: 'its price for this cart' }),
    currency_code: Type.String(),
    is_selected: Type.Boolean({ description: 'the cart’s method for its profile' }),
  }),
);

export const PaymentProvidersResponse = Type.Object({
  providers: Type.Array(Type.Object({ id: Type.String() })),
  payment_required: Type.Boolean({ description: 'false when the cart’s total is 0' }),
});
