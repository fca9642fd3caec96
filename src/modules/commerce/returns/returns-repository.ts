import { sql, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type {
  CommerceOrderItemRow,
  CommerceReturnItemRow,
  CommerceReturnReasonRow,
  CommerceReturnRow,
  CommerceTables,
  ReturnStatus,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** What a return needs of its order. */
export interface ReturnOrder {
  readonly id: number;
  readonly order_number: string;
  readonly status: string;
  readonly payment_status: string;
  readonly currency: string;
  readonly mode: string;
  readonly region_id: number | null;
  /** Whether the order's tax was added to its prices (not included in them). */
  readonly taxAdded: boolean;
}

export interface ReturnWithItems {
  readonly ret: Selectable<CommerceReturnRow>;
  readonly items: CommerceReturnItemRow[];
  readonly reason: Selectable<CommerceReturnReasonRow> | null;
}

export interface ReturnFilter {
  readonly status?: ReturnStatus;
  readonly order_id?: number;
  readonly limit: number;
  readonly offset: number;
}

/** Returns, their items, and what they read of the order, its fulfilments and its stock. */
export class ReturnsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): ReturnsRepository {
    return new ReturnsRepository(trx);
  }

  /** The order; with `lock`, its row locked: every change of its returns and money queues on it. */
  async order(orgId: number, orderId: number, lock: boolean): Promise<ReturnOrder | null> {
    let query = this.db
      .selectFrom('commerce_orders')
      .select([
        'id',
        'order_number',
        'status',
        'payment_status',
        'currency',
        'mode',
        'region_id',
        'subtotal_minor',
        'shipping_total_minor',
        'discount_total_minor',
        'total_minor',
      ])
      .where('org_id', '=', orgId)
      .where('id', '=', orderId);
    if (lock) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (row === undefined) return null;
    const beforeTax =
      Number(row.subtotal_minor) + Number(row.shipping_total_minor) - Number(row.discount_total_minor);
    return {
      id: Number(row.id),
      order_number: row.order_number,
      status: row.status,
      payment_status: row.payment_status,
      currency: row.currency,
      mode: row.mode,
      region_id: row.region_id === null ? null : Number(row.region_id),
      taxAdded: Number(row.total_minor) > beforeTax,
    };
  }

  async orderItems(orderId: number): Promise<CommerceOrderItemRow[]> {
    return this.db
      .selectFrom('commerce_order_items')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  }

  /** Per item, the units in fulfilments shipped or delivered: what may come back. */
  async shippedPerItem(orderId: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('commerce_fulfillment_items as i')
      .innerJoin('commerce_fulfillments as f', 'f.id', 'i.fulfillment_id')
      .select(['i.order_item_id', sql<string>`sum(i.quantity)`.as('quantity')])
      .where('f.order_id', '=', orderId)
      .where('f.status', 'in', ['shipped', 'delivered'])
      .groupBy('i.order_item_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.order_item_id), Number(r.quantity)]));
  }

  /**
   * Per item, the units its returns hold: asked for while requested or approved, received once
   * received or refunded; rejected and canceled returns hold none.
   */
  async returnedPerItem(orderId: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('commerce_return_items as i')
      .innerJoin('commerce_returns as r', 'r.id', 'i.return_id')
      .select([
        'i.order_item_id',
        sql<string>`sum(case when r.status in ('received', 'refunded') then coalesce(i.received_quantity, 0) else i.quantity end)`.as(
          'quantity',
        ),
      ])
      .where('r.order_id', '=', orderId)
      .where('r.status', 'not in', ['rejected', 'canceled'])
      .groupBy('i.order_item_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.order_item_id), Number(r.quantity)]));
  }

  async reasonExists(orgId: number, id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('commerce_return_reasons')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The `is_return` options of the order's region (every region's when it has none), oldest first. */
  async returnOptions(orgId: number, regionId: number | null): Promise<number[]> {
    let query = this.db
      .selectFrom('commerce_shipping_options')
      .select('id')
      .where('org_id', '=', orgId)
      .where('is_return', '=', true);
    if (regionId !== null) query = query.where('region_id', '=', regionId);
    return (await query.orderBy('id').execute()).map((r) => Number(r.id));
  }

  async locationExists(orgId: number, id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('commerce_stock_locations')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(
    values: Omit<Selectable<CommerceReturnRow>, 'id'>,
    items: readonly { item_id: number; quantity: number }[],
  ): Promise<number> {
    const made = await this.db
      .insertInto('commerce_returns')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(made.id);
    await this.db
      .insertInto('commerce_return_items')
      .values(items.map((i) => ({ return_id: id, order_item_id: i.item_id, quantity: i.quantity })))
      .execute();
    return id;
  }

  async update(id: number, patch: Updateable<CommerceReturnRow>): Promise<void> {
    await this.db.updateTable('commerce_returns').set(patch).where('id', '=', id).execute();
  }

  async setReceived(returnId: number, received: ReadonlyMap<number, number>): Promise<void> {
    for (const [itemId, quantity] of received)
      await this.db
        .updateTable('commerce_return_items')
        .set({ received_quantity: quantity })
        .where('return_id', '=', returnId)
        .where('order_item_id', '=', itemId)
        .execute();
  }

  /** Puts units back on the shelf: the level's stocked quantity grows (the level made when missing). */
  async restock(orgId: number, sku: string, locationId: number, quantity: number, at: Date): Promise<number> {
    const row = await this.db
      .insertInto('commerce_inventory_levels')
      .values({
        org_id: orgId,
        sku,
        stock_location_id: locationId,
        stocked_quantity: quantity,
        reserved_quantity: 0,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc.columns(['org_id', 'sku', 'stock_location_id']).doUpdateSet({
          stocked_quantity: sql<number>`commerce_inventory_levels.stocked_quantity + ${quantity}`,
          updated_at: at,
        }),
      )
      .returning('stocked_quantity')
      .executeTakeFirstOrThrow();
    return row.stocked_quantity;
  }

  async one(orgId: number, id: number): Promise<ReturnWithItems | null> {
    const rows = await this.db
      .selectFrom('commerce_returns')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
    return (await this.withItems(rows))[0] ?? null;
  }

  async ofOrder(orderId: number): Promise<ReturnWithItems[]> {
    const rows = await this.db
      .selectFrom('commerce_returns')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
    return this.withItems(rows);
  }

  /** The shop's returns, newest first, and how many match. */
  async list(orgId: number, filter: ReturnFilter): Promise<{ rows: ReturnWithItems[]; count: number }> {
    let query = this.db.selectFrom('commerce_returns').where('org_id', '=', orgId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.order_id !== undefined) query = query.where('order_id', '=', filter.order_id);
    const counted = await query.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return { rows: await this.withItems(rows), count: Number(counted.n) };
  }

  private async withItems(rows: Selectable<CommerceReturnRow>[]): Promise<ReturnWithItems[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.id));
    const items = await this.db
      .selectFrom('commerce_return_items')
      .selectAll()
      .where('return_id', 'in', ids)
      .orderBy('order_item_id')
      .execute();
    const reasonIds = [...new Set(rows.flatMap((r) => (r.reason_id === null ? [] : [Number(r.reason_id)])))];
    const reasons =
      reasonIds.length === 0
        ? []
        : await this.db
            .selectFrom('commerce_return_reasons')
            .selectAll()
            .where('id', 'in', reasonIds)
            .execute();
    return rows.map((ret) => ({
      ret,
      items: items.filter((i) => Number(i.return_id) === Number(ret.id)),
      reason: reasons.find((x) => Number(x.id) === Number(ret.reason_id)) ?? null,
    }));
  }
}
