/**
 * The Commerce module's tables as Kysely sees them (migrations/*_commerce_*.sql). Created empty:
 * the Commerce issue fills them; the five list routes of the Commerce API read them now. Money is
 * numeric in storage and text here (never a float in arithmetic).
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

export interface CommerceProductRow {
  id: number;
  org_id: number;
  title: string;
  handle: string;
  status: string;
  created_at: Date;
  updated_at: Date;
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

export interface CommerceTables {
  commerce_orders: CommerceOrderRow;
  commerce_products: CommerceProductRow;
  commerce_events: CommerceEventRow;
  commerce_promotions: CommercePromotionRow;
  commerce_gift_cards: CommerceGiftCardRow;
}
