import type { FulfillmentStatus } from '../commerce-tables.ts';

/** The quantities of an order's items in its fulfilments, by the fulfilment's status. */
export interface FulfilledQuantities {
  /** Everything the order's items add up to. */
  readonly ordered: number;
  readonly byStatus: Readonly<Partial<Record<FulfillmentStatus, number>>>;
}

/**
 * The order's `fulfillment_status`, after Medusa v2's (the furthest step wins, `partially_` while
 * it covers fewer units than the order has): delivered units first, then shipped (shipped or
 * delivered), then fulfilled (in any fulfilment not canceled). Canceled fulfilments count for nothing.
 */
export function orderFulfillmentStatus(q: FulfilledQuantities): string {
  const n = (s: FulfillmentStatus): number => q.byStatus[s] ?? 0;
  const delivered = n('delivered');
  const shipped = delivered + n('shipped');
  const fulfilled = shipped + n('created') + n('dispatched');
  const step = (count: number, name: string): string | null =>
    count <= 0 ? null : count >= q.ordered ? name : `partially_${name}`;
  return (
    step(delivered, 'delivered') ??
    step(shipped, 'shipped') ??
    step(fulfilled, 'fulfilled') ??
    'not_fulfilled'
  );
}
