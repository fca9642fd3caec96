import { sql, type Transaction } from 'kysely';
import type { CommerceInventoryReservationRow, CommerceTables } from '../commerce-tables.ts';

/** A change of one inventory level: `reserved` (and, for a shipment, `stocked`) go down by `quantity`. */
interface LevelChange {
  readonly sku: string;
  readonly locationId: number;
  quantity: number;
}

/**
 * The stock an order's reservations hold, inside the caller's transaction: shipped (stocked and
 * reserved both go down, the reservation shrinks or goes) or released by a cancel (reserved goes
 * down, the reservation goes). Levels are changed in SKU then location order, the order completion
 * locks them in, so the two never deadlock.
 */
export class FulfillmentStockRepository {
  constructor(
    private readonly trx: Transaction<CommerceTables>,
    private readonly orgId: number,
  ) {}

  /**
   * Turns the reservations of `items` into a shipment: per item, its reservations at `preferred`
   * first, then the oldest, up to the quantity shipped. Items without reservations (stock not
   * counted) change nothing.
   */
  async ship(
    items: readonly { order_item_id: number; quantity: number }[],
    preferred: number | null,
    now: Date,
  ): Promise<void> {
    const changes = new Map<string, LevelChange>();
    for (const item of items) {
      let left = item.quantity;
      for (const r of await this.reservations([item.order_item_id], preferred)) {
        if (left === 0) break;
        const take = Math.min(left, r.quantity);
        left -= take;
        if (take === r.quantity)
          await this.trx.deleteFrom('commerce_inventory_reservations').where('id', '=', r.id).execute();
        else
          await this.trx
            .updateTable('commerce_inventory_reservations')
            .set({ quantity: r.quantity - take })
            .where('id', '=', r.id)
            .execute();
        add(changes, r.sku, Number(r.stock_location_id), take);
      }
    }
    await this.apply([...changes.values()], true, now);
  }

  /** Releases every reservation of the order's items (a cancel). */
  async release(itemIds: readonly number[], now: Date): Promise<void> {
    if (itemIds.length === 0) return;
    const changes = new Map<string, LevelChange>();
    for (const r of await this.reservations(itemIds, null))
      add(changes, r.sku, Number(r.stock_location_id), r.quantity);
    await this.trx
      .deleteFrom('commerce_inventory_reservations')
      .where('order_item_id', 'in', itemIds)
      .execute();
    await this.apply([...changes.values()], false, now);
  }

  private async reservations(
    itemIds: readonly number[],
    preferred: number | null,
  ): Promise<CommerceInventoryReservationRow[]> {
    const rows = await this.trx
      .selectFrom('commerce_inventory_reservations')
      .selectAll()
      .where('org_id', '=', this.orgId)
      .where('order_item_id', 'in', itemIds)
      .orderBy('id')
      .execute();
    if (preferred === null) return rows;
    const here = (r: CommerceInventoryReservationRow): number =>
      Number(r.stock_location_id) === preferred ? 0 : 1;
    return rows.sort((a, b) => here(a) - here(b));
  }

  private async apply(changes: LevelChange[], shipped: boolean, now: Date): Promise<void> {
    changes.sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : a.locationId - b.locationId));
    for (const c of changes)
      await this.trx
        .updateTable('commerce_inventory_levels')
        .set({
          reserved_quantity: sql<number>`reserved_quantity - ${c.quantity}`,
          ...(shipped ? { stocked_quantity: sql<number>`stocked_quantity - ${c.quantity}` } : {}),
          updated_at: now,
        })
        .where('org_id', '=', this.orgId)
        .where('sku', '=', c.sku)
        .where('stock_location_id', '=', c.locationId)
        .execute();
  }
}

function add(changes: Map<string, LevelChange>, sku: string, locationId: number, quantity: number): void {
  const key = `${locationId}:${sku}`;
  const seen = changes.get(key);
  if (seen === undefined) changes.set(key, { sku, locationId, quantity });
  else seen.quantity += quantity;
}
