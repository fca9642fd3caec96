import type { Kysely, Transaction } from 'kysely';
import type { CommerceCartLineItemRow, CommerceCartRow, CommerceTables } from '../commerce-tables.ts';
import { cartDiscounts, NO_DISCOUNTS, type CartDiscounts, type DiscountRule } from './promotion-discounts.ts';
import { PromotionsRepository, type PromotionRow } from './promotions-repository.ts';

/** What a loaded cart carries for its discounts: its promotions' rules and its products' collections. */
export interface CartPromotionRules {
  readonly rules: readonly DiscountRule[];
  readonly collectionOf: ReadonlyMap<number, number>;
}

type Line = Pick<CommerceCartLineItemRow, 'unit_price' | 'quantity' | 'product_id'>;

export function ruleOf(row: PromotionRow): DiscountRule {
  return {
    id: Number(row.id),
    code: row.code,
    kind: row.kind,
    percent: Number(row.value),
    amounts: row.amounts,
    appliesTo: row.applies_to,
    productIds: row.product_ids.map(Number),
    collectionIds: row.collection_ids.map(Number),
    minSubtotals: row.min_subtotals,
    isAutomatic: row.is_automatic,
  };
}

/**
 * Read with the cart every time it is loaded (its view, its payment session, its completion), so
 * discounts follow every change of its lines, region or currency without being stored.
 */
export async function loadCartPromotionRules(
  db: Kysely<CommerceTables> | Transaction<CommerceTables>,
  cart: CommerceCartRow,
  lines: readonly Line[],
  now: Date,
): Promise<CartPromotionRules> {
  const repo = new PromotionsRepository(db);
  const rows = await repo.forCart(Number(cart.org_id), Number(cart.id), cart.email, now);
  if (rows.length === 0) return { rules: [], collectionOf: new Map() };
  const products = [...new Set(lines.flatMap((l) => (l.product_id === null ? [] : [Number(l.product_id)])))];
  return { rules: rows.map(ruleOf), collectionOf: await repo.collectionsOf(products) };
}

/** The cart's discounts, per line and per promotion (none when no rules were loaded). */
export function discountsOfCart(
  promotions: CartPromotionRules | undefined,
  lines: readonly Line[],
  currency: string,
): CartDiscounts {
  if (promotions === undefined || promotions.rules.length === 0) return NO_DISCOUNTS(lines.length);
  return cartDiscounts(
    promotions.rules,
    lines.map((l) => {
      const product = l.product_id === null ? null : Number(l.product_id);
      return {
        unit_price: Number(l.unit_price),
        quantity: l.quantity,
        product_id: product,
        collection_id: product === null ? null : (promotions.collectionOf.get(product) ?? null),
      };
    }),
    currency,
  );
}
