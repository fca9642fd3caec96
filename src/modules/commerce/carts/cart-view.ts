import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type {
  CommerceCartLineItemRow,
  CommerceCartRow,
  CommerceCartShippingMethodRow,
  CommerceShippingOptionRow,
} from '../commerce-tables.ts';
import { giftCardCover, type CartGiftCard } from './cart-gift-card-cover.ts';
import { majorUnits } from '../money/money-amounts.ts';
import { discountsOfCart, type CartPromotionRules } from '../promotions/cart-promotion-rules.ts';
import { promotionsOnCartView, type PromotionOnCartView } from '../promotions/promotion-view.ts';
import type { RegionWithCountries } from '../regions/shop-regions-repository.ts';
import { cartTotals, type CartTax, type CartTotals } from './cart-totals.ts';
import type { CartLineRow } from './carts-repository.ts';

/** A cart with all it holds, read in one go: what views, totals and completion work on. */
export interface LoadedCart {
  readonly cart: CommerceCartRow;
  /** Null when the cart's region was deleted. */
  readonly region: RegionWithCountries | null;
  readonly lines: readonly CartLineRow[];
  readonly methods: readonly CommerceCartShippingMethodRow[];
  /** Its promotions (promotions/cart-promotion-rules.ts); none when not read. */
  readonly promotions?: CartPromotionRules;
  /** The gift cards applied, first applied first (docs/commerce.md, "Gift cards"). */
  readonly giftCards: readonly CartGiftCard[];
}

export type LineItemView = JsonView<
  Omit<CommerceCartLineItemRow, 'cart_id' | 'unit_price' | 'created_at' | 'updated_at'>
> & { unit_price: number; subtotal: number; discount_total: number };

export type ShippingMethodView = JsonView<Omit<CommerceCartShippingMethodRow, 'cart_id' | 'amount'>> & {
  amount: number;
};

/** A cart as the Store API shows it: its amounts in major units of its currency. */
export type CartView = JsonView<Omit<CommerceCartRow, 'org_id'>> & {
  items: LineItemView[];
  shipping_methods: ShippingMethodView[];
  subtotal: number;
  shipping_total: number;
  tax_total: number;
  discount_total: number;
  total: number;
  promotions: PromotionOnCartView[];
  /** What each applied gift card pays of `total`, and their sum: the rest is the payment's. */
  gift_cards: { id: number; code_last4: string; amount: number }[];
  gift_card_total: number;
};

/** A shipping option offered to a cart, priced for it. */
export type OfferedOptionView = JsonView<
  Pick<CommerceShippingOptionRow, 'id' | 'name' | 'region_id' | 'shipping_profile_id' | 'price_type'>
> & { amount: number; currency_code: string; is_selected: boolean };

const iso = (d: Date | null): string | null => (d === null ? null : new Date(d).toISOString());

/** The region's tax (none without a region). */
export function taxOfCart(loaded: LoadedCart): CartTax {
  return loaded.region === null
    ? { ratePercent: 0, inclusive: false }
    : { ratePercent: Number(loaded.region.tax_rate), inclusive: loaded.region.tax_inclusive };
}

/** The cart's money, its promotions' discounts taken off its lines before tax. */
export function totalsOf(loaded: LoadedCart): CartTotals {
  const discounts = discountsOfCart(loaded.promotions, loaded.lines, loaded.cart.currency_code);
  return cartTotals(
    loaded.lines.map((l) => ({ unit_price: Number(l.unit_price), quantity: l.quantity })),
    loaded.methods.map((m) => Number(m.amount)),
    taxOfCart(loaded),
    discounts.lineDiscounts,
  );
}

export function cartView(loaded: LoadedCart): CartView {
  const { cart } = loaded;
  const money = (minor: number): number => majorUnits(minor, cart.currency_code);
  const totals = totalsOf(loaded);
  const gifts = giftCardCover(loaded.giftCards, totals.total);
  return {
    id: Number(cart.id),
    sales_channel_id: Number(cart.sales_channel_id),
    mode: cart.mode,
    region_id: cart.region_id === null ? null : Number(cart.region_id),
    currency_code: cart.currency_code,
    email: cart.email,
    country_code: cart.country_code,
    locale: cart.locale,
    note: cart.note,
    shipping_address: cart.shipping_address,
    billing_address: cart.billing_address,
    metadata: cart.metadata,
    items: loaded.lines.map((l, i) =>
      lineItemView(l, money, totals.lineSubtotals[i]!, totals.lineDiscounts[i]!),
    ),
    shipping_methods: loaded.methods.map((m) => ({
      id: Number(m.id),
      shipping_option_id: m.shipping_option_id === null ? null : Number(m.shipping_option_id),
      shipping_profile_id: Number(m.shipping_profile_id),
      name: m.name,
      amount: money(Number(m.amount)),
      created_at: iso(m.created_at)!,
    })),
    subtotal: money(totals.subtotal),
    shipping_total: money(totals.shippingTotal),
    tax_total: money(totals.taxTotal),
    discount_total: money(totals.discountTotal),
    total: money(totals.total),
    promotions: promotionsOnCartView(
      discountsOfCart(loaded.promotions, loaded.lines, cart.currency_code).applied,
      cart.currency_code,
    ),
    gift_cards: gifts.cards.map((g) => ({
      id: g.id,
      code_last4: g.code_last4,
      amount: money(g.amountMinor),
    })),
    gift_card_total: money(gifts.totalMinor),
    completed_at: iso(cart.completed_at),
    created_at: iso(cart.created_at)!,
    updated_at: iso(cart.updated_at)!,
  };
}

function lineItemView(
  l: CartLineRow,
  money: (minor: number) => number,
  subtotal: number,
  discount: number,
): LineItemView {
  return {
    id: Number(l.id),
    variant_id: l.variant_id === null ? null : Number(l.variant_id),
    product_id: l.product_id === null ? null : Number(l.product_id),
    title: l.title,
    variant_title: l.variant_title,
    sku: l.sku,
    quantity: l.quantity,
    unit_price: money(Number(l.unit_price)),
    subtotal: money(subtotal),
    discount_total: money(discount),
    metadata: l.metadata,
    shipping_profile_id: l.shipping_profile_id === null ? null : Number(l.shipping_profile_id),
    requires_shipping: l.requires_shipping,
  };
}
