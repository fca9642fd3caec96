import { taxOf } from '../carts/cart-totals.ts';
import type { CommerceOrderItemRow } from '../commerce-tables.ts';
import type { RefundCreatedData } from '../refunds/refund-record.ts';
import type { OrderFacts } from './documents-repository.ts';
import type { DocumentLine } from './order-document.ts';

const n = (v: string | number): number => Number(v);

/**
 * An invoice's lines: each order item at its price with its tax, then the shipping as one line
 * whose tax is what the order's tax holds beyond its items', so the lines' taxes always add up
 * to the order's. An item's tax is its stored `tax_minor`; orders whose items carry none (a
 * cart's completion stores the order's tax only) have it worked out as the cart worked it out,
 * each line on its own at the region's rate (carts/cart-totals.ts).
 */
export function invoiceLines(items: readonly CommerceOrderItemRow[], order: OrderFacts): DocumentLine[] {
  const stored = items.some((i) => n(i.tax_minor) !== 0);
  const inclusive = order.total === order.subtotal + order.shipping - order.discount;
  const taxOfItem = (i: CommerceOrderItemRow): number =>
    stored || order.taxRate === null || order.tax === 0
      ? n(i.tax_minor)
      : taxOf(n(i.subtotal_minor), { ratePercent: order.taxRate, inclusive });
  const lines: DocumentLine[] = items.map((i) => ({
    description: i.title,
    sku: i.sku,
    quantity: i.quantity,
    unit_price_minor: n(i.unit_price_minor),
    tax_minor: taxOfItem(i),
    amount_minor: n(i.subtotal_minor),
  }));
  if (order.shipping > 0) {
    const itemsTax = lines.reduce((a, l) => a + (l.tax_minor ?? 0), 0);
    lines.push({
      description: 'Shipping',
      sku: null,
      quantity: 1,
      unit_price_minor: order.shipping,
      tax_minor: Math.max(0, order.tax - itemsTax),
      amount_minor: order.shipping,
    });
  }
  return lines;
}

/**
 * A credit note's lines: the items a refund pays back (a return) with their amounts, and what
 * the refund holds beyond them (shipping, an amount alone) as one `Refund` line.
 */
export function creditNoteLines(
  items: readonly CommerceOrderItemRow[],
  refund: RefundCreatedData,
): DocumentLine[] {
  const byId = new Map(items.map((i) => [Number(i.id), i]));
  const lines: DocumentLine[] = refund.lines.map((l) => {
    const item = byId.get(l.order_item_id);
    return {
      description: item?.title ?? `Item ${l.order_item_id}`,
      sku: item?.sku ?? null,
      quantity: l.quantity,
      unit_price_minor: l.amount % l.quantity === 0 ? l.amount / l.quantity : null,
      tax_minor: null,
      amount_minor: l.amount,
    };
  });
  const rest = refund.amount - lines.reduce((a, l) => a + l.amount_minor, 0);
  if (rest > 0 || lines.length === 0) {
    lines.push({
      description: refund.reason === 'cancel' ? 'Refund: order canceled' : 'Refund',
      sku: null,
      quantity: 1,
      unit_price_minor: rest,
      tax_minor: null,
      amount_minor: rest,
    });
  }
  return lines;
}
