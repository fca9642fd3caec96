import type { Generated } from 'kysely';
import type { FinanceTables } from './finance/finance-tables.ts';

/**
 * The Commerce module's tables as Kysely sees them (migrations/*_commerce_*.sql). Money of the
 * shop is an integer of the currency's minor unit (`bigint`, read as text by the driver and turned
 * into a number by the repositories); the lists' older money columns (orders' total, promotions'
 * value, gift cards' balance) are numeric, text here.
 */
export interface CommerceOrderRow {
  id: number;
  org_id: number;
  order_number: string;
  email: string | null;
  customer_id: number | null;
  status: string;
  currency: string;
  total: string;
  placed_at: Date;
  created_at: Date;
}

/** Columns of an order beyond the list's (edits, and the carts that place orders). */
export interface CommerceOrderExtraRow {
  region_id: number | null;
  sales_channel_id: number | null;
  metadata: Record<string, unknown>;
  updated_at: Date;
}

/** Columns of an order placed by the Store API (migrations/*_commerce_checkout.sql); minor units. */
export interface CommerceOrderCheckoutRow {
  /** The shopper's order number, counted per organization (null for orders made before checkout). */
  display_id: number | null;
  mode: 'test' | 'live';
  cart_id: number | null;
  shipping_address: Record<string, unknown> | null;
  billing_address: Record<string, unknown> | null;
  subtotal_minor: string | number;
  shipping_total_minor: string | number;
  tax_total_minor: string | number;
  discount_total_minor: string | number;
  total_minor: string | number;
  /** `not_paid` → `authorized` → `captured` → `partially_refunded` → `refunded`; or `canceled`. */
  payment_status: string;
  /** `not_fulfilled` → `partially_fulfilled` → `fulfilled` → `shipped` → `delivered`; or `canceled`. */
  fulfillment_status: string;
  /** When the order was canceled (migrations/*_commerce_fulfillments.sql). */
  canceled_at: Date | null;
}

/** `created` → `dispatched` → `shipped` → `delivered`; `canceled` from created or dispatched. */
export type FulfillmentStatus = 'created' | 'dispatched' | 'shipped' | 'delivered' | 'canceled';

export interface CommerceFulfillmentRow {
  id: number;
  org_id: number;
  order_id: number;
  location_id: number | null;
  status: FulfillmentStatus;
  tracking_number: string | null;
  tracking_url: string | null;
  created_at: Date;
  dispatched_at: Date | null;
  shipped_at: Date | null;
  delivered_at: Date | null;
  canceled_at: Date | null;
}

export interface CommerceFulfillmentItemRow {
  fulfillment_id: number;
  order_item_id: number;
  quantity: number;
}

/** A refund of a placed order (migrations/*_commerce_refunds.sql); minor units. */
export interface CommerceRefundRow {
  id: Generated<number>;
  org_id: number;
  order_id: number;
  return_id: number | null;
  amount_minor: string | number;
  currency_code: string;
  /** `return`, `cancel`, or the merchant's words. */
  reason: string;
  note: string | null;
  created_at: Date;
}

/** How much of a refund went back through one of the order's payments. */
export interface CommerceRefundAllocationRow {
  refund_id: number;
  payment_id: number;
  provider: string;
  amount_minor: string | number;
  /** The provider's refund id; null for what the shop gives back itself (a gift card). */
  provider_reference: string | null;
}

/** An order item a refund pays back, with the amount paid back for it. */
export interface CommerceRefundLineRow {
  refund_id: number;
  order_item_id: number;
  quantity: number;
  amount_minor: string | number;
}

/** `requested` → `approved` → `received` → `refunded`; or `rejected` / `canceled` (migrations/*_commerce_returns.sql). */
export type ReturnStatus = 'requested' | 'approved' | 'received' | 'refunded' | 'rejected' | 'canceled';

export interface CommerceReturnReasonRow {
  id: Generated<number>;
  org_id: number;
  value: string;
  label: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceReturnRow {
  id: Generated<number>;
  org_id: number;
  order_id: number;
  status: ReturnStatus;
  reason_id: number | null;
  note: string | null;
  shipping_option_id: number | null;
  /** `shopper` (Store API) or `merchant` (Commerce API). */
  requested_by: string;
  rejection_reason: string | null;
  location_id: number | null;
  refund_id: number | null;
  created_at: Date;
  approved_at: Date | null;
  rejected_at: Date | null;
  received_at: Date | null;
  refunded_at: Date | null;
  canceled_at: Date | null;
  updated_at: Date;
}

export interface CommerceReturnItemRow {
  return_id: number;
  order_item_id: number;
  quantity: number;
  /** Set when the return is received. */
  received_quantity: number | null;
}

export interface CommerceOrderCounterRow {
  org_id: number;
  last_display_id: number;
}

export interface CommerceOrderItemRow {
  id: number;
  org_id: number;
  order_id: number;
  variant_id: number | null;
  product_id: number | null;
  title: string;
  sku: string | null;
  quantity: number;
  unit_price_minor: string | number;
  subtotal_minor: string | number;
  tax_minor: string | number;
  requires_shipping: boolean;
  metadata: Record<string, unknown>;
}

export interface CommerceInventoryReservationRow {
  id: number;
  org_id: number;
  order_item_id: number;
  sku: string;
  stock_location_id: number;
  quantity: number;
  created_at: Date;
}

export interface CommercePaymentSessionRow {
  id: number;
  org_id: number;
  cart_id: number;
  /** `stripe` or `manual`. */
  provider: string;
  /** The provider's payment (a PaymentIntent id at Stripe). */
  reference: string;
  amount_minor: string | number;
  currency_code: string;
  status: string;
  created_at: Date;
  updated_at: Date;
}

export interface CommercePaymentRow {
  id: number;
  org_id: number;
  order_id: number;
  provider: string;
  reference: string;
  currency_code: string;
  amount_minor: string | number;
  captured_minor: string | number;
  refunded_minor: string | number;
  status: string;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceCartCompletionRow {
  org_id: number;
  idempotency_key: string;
  cart_id: number;
  /** SHA-256 of the cart id and the request body: the same key with another body is refused. */
  request_hash: string;
  order_id: number | null;
  created_at: Date;
}

export interface CommerceCartLockRow {
  cart_id: number;
  org_id: number;
  started_at: Date;
}

export interface CommerceOrderNoteRow {
  id: number;
  org_id: number;
  order_id: number;
  body: string;
  /** Who wrote it: `key:<id>` or `user:<id>`. */
  author: string;
  created_at: Date;
}

export interface CommerceProductRow {
  id: number;
  org_id: number;
  title: string;
  handle: string;
  status: string;
  created_at: Date;
  updated_at: Date;
}

/** Columns of a product beyond the list's. */
export interface CommerceProductExtraRow {
  subtitle: string | null;
  description: string | null;
  /** Image URLs, in order. */
  images: string[];
  /** `[{title, values}]`: the options a variant picks one value of each. */
  options: { title: string; values: string[] }[];
  /** Grams. */
  weight: number | null;
  collection_id: number | null;
  shipping_profile_id: number | null;
  /** Its variants sell gift cards: completion issues one per unit (docs/commerce.md, "Gift cards"). */
  is_gift_card: boolean;
}

export interface CommerceProductVariantRow {
  id: number;
  org_id: number;
  product_id: number;
  title: string;
  sku: string | null;
  /** Option title → value. */
  options: Record<string, string>;
  manage_inventory: boolean;
  allow_backorder: boolean;
  weight: number | null;
  rank: number;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceVariantPriceRow {
  variant_id: number;
  currency_code: string;
  /** Minor units (bigint). */
  amount: string | number;
}

export interface CommerceProductCollectionRow {
  id: number;
  org_id: number;
  title: string;
  handle: string;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceProductCategoryRow {
  id: number;
  org_id: number;
  name: string;
  handle: string;
  parent_id: number | null;
  is_active: boolean;
  is_public: boolean;
  rank: number;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceProductCategoryLinkRow {
  product_id: number;
  category_id: number;
}

export interface CommerceProductSalesChannelRow {
  product_id: number;
  sales_channel_id: number;
}

export interface CommerceStoreSettingsRow {
  org_id: number;
  name: string | null;
  default_currency_code: string;
  support_email: string | null;
  /** Who invoices the shop's buyers under the `hybrid` billing mode (documents/document-parties.ts). */
  seller_of_record: 'organization' | 'platform';
  updated_at: Date;
}

export interface CommerceSalesChannelRow {
  id: number;
  org_id: number;
  name: string;
  description: string | null;
  is_disabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface CommercePublishableKeyRow {
  id: number;
  org_id: number;
  sales_channel_id: number;
  mode: 'test' | 'live';
  label: string | null;
  /** The key's first characters: an index, shown as the key's prefix. */
  lookup: string;
  /** SHA-256 of the whole key, hex. */
  key_hash: string;
  revoked_at: Date | null;
  created_at: Date;
}

export interface CommerceRegionRow {
  id: number;
  org_id: number;
  name: string;
  currency_code: string;
  /** Percent, numeric(7,4): text from the driver. */
  tax_rate: string | number;
  tax_inclusive: boolean;
  payment_providers: string[];
  created_at: Date;
  updated_at: Date;
}

export interface CommerceRegionCountryRow {
  org_id: number;
  country_code: string;
  region_id: number;
}

export interface CommerceShippingProfileRow {
  id: number;
  org_id: number;
  name: string;
  type: string;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceShippingOptionRow {
  id: number;
  org_id: number;
  region_id: number;
  shipping_profile_id: number;
  name: string;
  price_type: 'flat' | 'weight';
  /** Minor units (bigint); the flat price. */
  amount: string | number | null;
  /** By weight: `[{up_to_grams (null: no upper end), amount (minor units)}]`, ascending. */
  weight_rates: { up_to_grams: number | null; amount: number }[];
  min_subtotal: string | number | null;
  max_subtotal: string | number | null;
  is_return: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceStockLocationRow {
  id: number;
  org_id: number;
  name: string;
  address: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export interface CommerceStockLocationChannelRow {
  stock_location_id: number;
  sales_channel_id: number;
}

export interface CommerceInventoryLevelRow {
  org_id: number;
  sku: string;
  stock_location_id: number;
  stocked_quantity: number;
  reserved_quantity: number;
  updated_at: Date;
}

/** The last document number given per seller, kind and year (migrations/*_commerce_documents.sql). */
export interface CommerceDocumentCounterRow {
  /** `platform`, or `org:<id>` for an organization selling itself. */
  seller_key: string;
  kind: 'invoice' | 'credit_note';
  year: number;
  last_number: number;
}

/** An issued order document: its snapshot (documents/order-document.ts), never changed. */
export interface CommerceOrderDocumentRow {
  id: Generated<number>;
  org_id: number;
  order_id: number;
  kind: 'invoice' | 'credit_note';
  refund_id: number | null;
  seller_key: string;
  number: string;
  issued_at: Date;
  snapshot: unknown;
}

export interface CommerceEventRow {
  id: number;
  org_id: number;
  name: string;
  data: Record<string, unknown>;
  created_at: Date;
}

export interface CommercePromotionRow {
  id: number;
  org_id: number;
  code: string;
  kind: string;
  value: string;
  status: string;
  created_at: Date;
}

/**
 * What a promotion holds beyond the list's columns (migrations/*_commerce_promotions.sql): money
 * in minor units per currency (`{"EUR": 500}`), ids as JSON arrays.
 */
export interface CommercePromotionExtraRow {
  amounts: Record<string, number>;
  applies_to: 'order' | 'items';
  product_ids: number[];
  collection_ids: number[];
  starts_at: Date | null;
  ends_at: Date | null;
  usage_limit: number | null;
  used: number;
  per_customer_limit: number | null;
  min_subtotals: Record<string, number>;
  is_automatic: boolean;
  updated_at: Date;
}

/** A code a shopper applied to a cart. */
export interface CommerceCartPromotionRow {
  cart_id: number;
  promotion_id: number;
  created_at: Generated<Date>;
}

/** A promotion an order used, with its discount in minor units of the order's currency. */
export interface CommerceOrderPromotionRow {
  id: Generated<number>;
  org_id: number;
  order_id: number;
  promotion_id: number | null;
  code: string;
  /** Lower case: the per-customer limit counts by it. */
  email: string;
  amount_minor: string | number;
  created_at: Generated<Date>;
}

export interface CommerceGiftCardRow {
  id: number;
  org_id: number;
  /** The last four characters of the code: the code itself is a secret of its holder. */
  code_last4: string;
  balance: string;
  currency: string;
  status: string;
  created_at: Date;
}

/** What gift cards carry beyond the list's columns (docs/commerce.md, "Gift cards"). */
export interface CommerceGiftCardExtraRow {
  /** A keyed hash of the code (the sealer's `mac`); null for cards from before codes were issued. */
  code_hash: string | null;
  value_minor: string | number;
  balance_minor: string | number;
  expires_at: Date | null;
  note: string | null;
  /** The order that bought it, when bought as a product. */
  order_id: number | null;
  updated_at: Date;
}

/** One change of a gift card's balance, signed, in minor units. */
export interface CommerceGiftCardTransactionRow {
  id: number;
  org_id: number;
  gift_card_id: number;
  kind: 'issued' | 'adjusted' | 'spent' | 'restored';
  amount_minor: string | number;
  balance_after_minor: string | number;
  order_id: number | null;
  refund_id: number | null;
  note: string | null;
  created_at: Date;
}

/** A gift card a shopper applied to an open cart. */
export interface CommerceCartGiftCardRow {
  cart_id: number;
  gift_card_id: number;
  created_at: Date;
}

/** A Store API cart: in the mode and sales channel of the key that made it, in its region's currency. */
export interface CommerceCartRow {
  id: number;
  org_id: number;
  sales_channel_id: number;
  mode: 'test' | 'live';
  /** Null once its region is deleted (a new one is picked by PATCH). */
  region_id: number | null;
  currency_code: string;
  email: string | null;
  shipping_address: Record<string, unknown> | null;
  billing_address: Record<string, unknown> | null;
  country_code: string | null;
  locale: string | null;
  note: string | null;
  metadata: Record<string, unknown>;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A cart's line: what was added, as it was sold (titles, SKU, unit price in minor units). */
export interface CommerceCartLineItemRow {
  id: number;
  cart_id: number;
  /** Null once the variant (or product) is deleted; the line keeps its snapshot. */
  variant_id: number | null;
  product_id: number | null;
  /** The product's title. */
  title: string;
  variant_title: string;
  sku: string | null;
  quantity: number;
  /** Minor units of the cart's currency (bigint). */
  unit_price: string | number;
  metadata: Record<string, unknown>;
  shipping_profile_id: number | null;
  requires_shipping: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The shipping method a cart chose for one shipping profile, priced when chosen or refreshed. */
export interface CommerceCartShippingMethodRow {
  id: number;
  cart_id: number;
  shipping_option_id: number | null;
  shipping_profile_id: number;
  name: string;
  /** Minor units of the cart's currency (bigint). */
  amount: string | number;
  created_at: Date;
}

/** The money side's tables join the module's (finance/finance-tables.ts). */
export interface CommerceTables extends FinanceTables {
  commerce_orders: CommerceOrderRow & CommerceOrderExtraRow & CommerceOrderCheckoutRow;
  commerce_order_counters: CommerceOrderCounterRow;
  commerce_refunds: CommerceRefundRow;
  commerce_refund_allocations: CommerceRefundAllocationRow;
  commerce_refund_lines: CommerceRefundLineRow;
  commerce_document_counters: CommerceDocumentCounterRow;
  commerce_order_documents: CommerceOrderDocumentRow;
  commerce_return_reasons: CommerceReturnReasonRow;
  commerce_returns: CommerceReturnRow;
  commerce_return_items: CommerceReturnItemRow;
  commerce_order_items: CommerceOrderItemRow;
  commerce_inventory_reservations: CommerceInventoryReservationRow;
  commerce_payment_sessions: CommercePaymentSessionRow;
  commerce_payments: CommercePaymentRow;
  commerce_cart_completions: CommerceCartCompletionRow;
  commerce_cart_locks: CommerceCartLockRow;
  commerce_order_notes: CommerceOrderNoteRow;
  commerce_fulfillments: CommerceFulfillmentRow;
  commerce_fulfillment_items: CommerceFulfillmentItemRow;
  commerce_products: CommerceProductRow & CommerceProductExtraRow;
  commerce_product_variants: CommerceProductVariantRow;
  commerce_variant_prices: CommerceVariantPriceRow;
  commerce_product_collections: CommerceProductCollectionRow;
  commerce_product_categories: CommerceProductCategoryRow;
  commerce_product_category_links: CommerceProductCategoryLinkRow;
  commerce_product_sales_channels: CommerceProductSalesChannelRow;
  commerce_store_settings: CommerceStoreSettingsRow;
  commerce_sales_channels: CommerceSalesChannelRow;
  commerce_publishable_keys: CommercePublishableKeyRow;
  commerce_regions: CommerceRegionRow;
  commerce_region_countries: CommerceRegionCountryRow;
  commerce_shipping_profiles: CommerceShippingProfileRow;
  commerce_shipping_options: CommerceShippingOptionRow;
  commerce_stock_locations: CommerceStockLocationRow;
  commerce_stock_location_channels: CommerceStockLocationChannelRow;
  commerce_inventory_levels: CommerceInventoryLevelRow;
  commerce_events: CommerceEventRow;
  commerce_promotions: CommercePromotionRow & CommercePromotionExtraRow;
  commerce_cart_promotions: CommerceCartPromotionRow;
  commerce_order_promotions: CommerceOrderPromotionRow;
  commerce_gift_cards: CommerceGiftCardRow & CommerceGiftCardExtraRow;
  commerce_gift_card_transactions: CommerceGiftCardTransactionRow;
  commerce_cart_gift_cards: CommerceCartGiftCardRow;
  commerce_carts: CommerceCartRow;
  commerce_cart_line_items: CommerceCartLineItemRow;
  commerce_cart_shipping_methods: CommerceCartShippingMethodRow;
}
