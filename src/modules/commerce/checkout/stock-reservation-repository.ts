import { sql, type Transaction } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';

/** A quantity of a SKU wanted by an order's item. */
export interface Wanted {
  readonly key: number;
  readonly variantId: number;
  readonly sku: string;
  readonly quantity: number;
}

/** Where a wanted quantity is taken from: one row per stock location used. */
export interface Allocation {
  readonly key: number;
  readonly sku: string;
  readonly stockLocationId: number;
  readonly quantity: number;
}

/** The first variant short of stock and what it has; the allocation otherwise. */
export type AllocationResult =
  | { readonly ok: true; readonly allocations: readonly Allocation[] }
  | { readonly ok: false; readonly variantId: number; readonly available: number };

/**
 * Reserves stock for an order inside the completion's transaction: the inventory levels of the
 * wanted SKUs at the stock locations serving the sales channel are locked (FOR UPDATE, in one
 * order — SKU, then location — so concurrent completions never deadlock), each quantity is taken
 * from the locations with the most available first, and `reserved_quantity` grows by what was
 * taken. Two completions for the last units therefore run one after the other, and the second
 * sees what the first reserved: no overselling.
 */
export async function reserveStock(
  trx: Transaction<CommerceTables>,
  orgId: number,
  salesChannelId: number,
  wanted: readonly Wanted[],
  now: Date,
): Promise<AllocationResult> {
  if (wanted.length === 0) return { ok: true, allocations: [] };
  const skus = [...new Set(wanted.map((w) => w.sku))].sort();
  const levels = await trx
    .selectFrom('commerce_inventory_levels as l')
    .innerJoin('commerce_stock_location_channels as c', 'c.stock_location_id', 'l.stock_location_id')
    .select(['l.sku', 'l.stock_location_id', 'l.stocked_quantity', 'l.reserved_quantity'])
    .where('l.org_id', '=', orgId)
    .where('c.sales_channel_id', '=', salesChannelId)
    .where('l.sku', 'in', skus)
    .orderBy('l.sku')
    .orderBy('l.stock_location_id')
    .forUpdate('l')
    .execute();
  const free = new Map<string, { location: number; available: number }[]>();
  for (const l of levels) {
    const list = free.get(l.sku) ?? [];
    list.push({ location: Number(l.stock_location_id), available: l.stocked_quantity - l.reserved_quantity });
    free.set(l.sku, list);
  }
  const allocations: Allocation[] = [];
  for (const w of wanted) {
    const places = (free.get(w.sku) ?? []).sort(
      (a, b) => b.available - a.available || a.location - b.location,
    );
    const available = places.reduce((n, p) => n + Math.max(p.available, 0), 0);
    if (available < w.quantity) return { ok: false, variantId: w.variantId, available };
    let left = w.quantity;
    for (const p of places) {
      const take = Math.min(left, Math.max(p.available, 0));
      if (take === 0) continue;
      p.available -= take;
      left -= take;
      allocations.push({ key: w.key, sku: w.sku, stockLocationId: p.location, quantity: take });
      if (left === 0) break;
    }
  }
  for (const a of allocations)
    await trx
      .updateTable('commerce_inventory_levels')
      .set({ reserved_quantity: sql<number>`reserved_quantity + ${a.quantity}`, updated_at: now })
      .where('org_id', '=', orgId)
      .where('sku', '=', a.sku)
      .where('stock_location_id', '=', a.stockLocationId)
      .execute();
  return { ok: true, allocations };
}
