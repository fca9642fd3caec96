import { Type } from 'typebox';
import { describes, Nullable, type JsonView } from '../../../kernel/http/view-schemas.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { AppliedPromotion } from './promotion-discounts.ts';
import type { PromotionRow } from './promotions-repository.ts';

/** An amount of one currency, in its major units. */
export interface CurrencyAmount {
  currency_code: string;
  amount: number;
}

/**
 * A promotion as the Commerce API shows it (the list's fields first, as the list answered them:
 * `value` decimal text, the percent of a percentage promotion, 0.00 for a fixed one); its money
 * per currency in major units.
 */
export type PromotionView = JsonView<Omit<PromotionRow, 'org_id' | 'amounts' | 'min_subtotals'>> & {
  amounts: CurrencyAmount[];
  min_subtotals: CurrencyAmount[];
};

/** A promotion on a cart: a code applied, or an automatic promotion whose conditions hold. */
export interface PromotionOnCartView {
  id: number;
  code: string;
  is_automatic: boolean;
  /** Whether its conditions hold now (currency, minimum subtotal). */
  applies: boolean;
  discount_total: number;
}

const iso = (d: Date | null): string | null => (d === null ? null : new Date(d).toISOString());

/** `{"EUR": 500}` (minor units) → `[{currency_code: "EUR", amount: 5}]`, by currency. */
export const amountsView = (amounts: Readonly<Record<string, number>>): CurrencyAmount[] =>
  Object.keys(amounts)
    .sort()
    .map((c) => ({ currency_code: c, amount: majorUnits(amounts[c]!, c) }));

export function promotionView(r: PromotionRow): PromotionView {
  return {
    id: Number(r.id),
    code: r.code,
    kind: r.kind,
    value: r.value,
    status: r.status,
    created_at: iso(r.created_at)!,
    amounts: amountsView(r.amounts ?? {}),
    applies_to: r.applies_to ?? 'order',
    product_ids: (r.product_ids ?? []).map(Number),
    collection_ids: (r.collection_ids ?? []).map(Number),
    starts_at: iso(r.starts_at ?? null),
    ends_at: iso(r.ends_at ?? null),
    usage_limit: r.usage_limit ?? null,
    used: Number(r.used ?? 0),
    per_customer_limit: r.per_customer_limit ?? null,
    min_subtotals: amountsView(r.min_subtotals ?? {}),
    is_automatic: r.is_automatic ?? false,
    updated_at: iso(r.updated_at ?? r.created_at)!,
  };
}

/** The cart's promotions: every code applied, and automatic promotions only while they apply. */
export function promotionsOnCartView(
  applied: readonly AppliedPromotion[],
  currency: string,
): PromotionOnCartView[] {
  return applied
    .filter((p) => p.applies || !p.isAutomatic)
    .map((p) => ({
      id: p.id,
      code: p.code,
      is_automatic: p.isAutomatic,
      applies: p.applies,
      discount_total: majorUnits(p.amount, currency),
    }));
}

const CurrencyAmountResponse = Type.Object({
  currency_code: Type.String(),
  amount: Type.Number({ description: 'major units' }),
});

export const PromotionResponse = describes<PromotionView>()(
  Type.Object({
    id: Type.Integer(),
    code: Type.String(),
    kind: Type.String({ description: '`percentage` or `fixed`' }),
    value: Type.String({
      description: 'decimal text: the percent of a percentage promotion, 0.00 for fixed',
    }),
    status: Type.String({ description: '`active`, `inactive` or `draft`' }),
    created_at: Type.String(),
    amounts: Type.Array(CurrencyAmountResponse, { description: 'a fixed promotion’s amount per currency' }),
    applies_to: Type.Union([Type.Literal('order'), Type.Literal('items')]),
    product_ids: Type.Array(Type.Integer()),
    collection_ids: Type.Array(Type.Integer()),
    starts_at: Nullable(Type.String()),
    ends_at: Nullable(Type.String()),
    usage_limit: Nullable(Type.Integer()),
    used: Type.Integer({ description: 'orders placed with it' }),
    per_customer_limit: Nullable(Type.Integer()),
    min_subtotals: Type.Array(CurrencyAmountResponse),
    is_automatic: Type.Boolean(),
    updated_at: Type.String(),
  }),
);

export const PromotionOnCartResponse = describes<PromotionOnCartView>()(
  Type.Object({
    id: Type.Integer(),
    code: Type.String(),
    is_automatic: Type.Boolean(),
    applies: Type.Boolean({ description: 'whether its conditions hold now' }),
    discount_total: Type.Number(),
  }),
);
