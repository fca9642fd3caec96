import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  CommerceFulfillmentItemRow,
  CommerceFulfillmentRow,
  CommercePaymentRow,
  CommerceTables,
  FulfillmentStatus,
} from '../commerce-tables.ts';
import { lockOrderRow, type LockedOrder } from '../shared/order-lock-repository.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export interface FulfillmentWithItems {
  readonly fulfillment: CommerceFulfillmentRow;
  readonly items: CommerceFulfillmentItemRow[];
}

export type FulfillmentPatch = Partial<
  Pick<
    CommerceFulfillmentRow,
    | 'status'
    | 'tracking_number'
    | 'tracking_url'
    | 'dispatched_at'
    | 'shipped_at'
    | 'delivered_at'
    | 'canceled_at'
  >
>;

/** Fulfilments of an order, and the order columns and payments they and a cancel move. */
export class FulfillmentsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): FulfillmentsRepository {
    return new FulfillmentsRepository(trx);
  }

  /** The order, its row locked: fulfilments and cancels of one order run one after another. */
  lockOrder(orgId: number, orderId: number): Promise<LockedOrder | null> {
    return lockOrderRow(this.db, orgId, orderId);
  }

  async orderExists(orgId: number, orderId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('commerce_orders')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', orderId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The order's items: id → quantity ordered. */
  async itemQuantities(orderId: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('commerce_order_items')
      .select(['id', 'quantity'])
      .where('order_id', '=', orderId)
      .execute();
    return new Map(rows.map((r) => [Number(r.id), r.quantity]));
  }

  /** Per item, the quantity in fulfilments of the order that are not canceled. */
  async fulfilledPerItem(orderId: number): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('commerce_fulfillment_items as i')
      .innerJoin('commerce_fulfillments as f', 'f.id', 'i.fulfillment_id')
      .select(['i.order_item_id', sql<string>`sum(i.quantity)`.as('quantity')])
      .where('f.order_id', '=', orderId)
      .where('f.status', '<>', 'canceled')
      .groupBy('i.order_item_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.order_item_id), Number(r.quantity)]));
  }

  /** The units of the order's items in its fulfilments, by fulfilment status. */
  async quantitiesByStatus(orderId: number): Promise<Partial<Record<FulfillmentStatus, number>>> {
    const rows = await this.db
      .selectFrom('commerce_fulfillment_items as i')
      .innerJoin('commerce_fulfillments as f', 'f.id', 'i.fulfillment_id')
      .select(['f.status', sql<string>`sum(i.quantity)`.as('quantity')])
      .where('f.order_id', '=', orderId)
      .groupBy('f.status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.quantity)]));
  }

  async locationExists(orgId: number, locationId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('commerce_stock_locations')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', locationId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(
    orgId: number,
    orderId: number,
    locationId: number | null,
    items: readonly { item_id: number; quantity: number }[],
    at: Date,
  ): Promise<number> {
    const made = await this.db
      .insertInto('commerce_fulfillments')
      .values({
        org_id: orgId,
        order_id: orderId,
        location_id: locationId,
        status: 'created',
        created_at: at,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(made.id);
    await this.db
      .insertInto('commerce_fulfillment_items')
      .values(items.map((i) => ({ fulfillment_id: id, order_item_id: i.item_id, quantity: i.quantity })))
      .execute();
    return id;
  }

  async fulfillment(orgId: number, orderId: number, id: number): Promise<FulfillmentWithItems | null> {
    const row = await this.db
      .selectFrom('commerce_fulfillments')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('order_id', '=', orderId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return null;
    const items = await this.itemsOf([Number(row.id)]);
    return { fulfillment: row, items };
  }

  async ofOrder(orderId: number): Promise<FulfillmentWithItems[]> {
    const rows = await this.db
      .selectFrom('commerce_fulfillments')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
    const items = await this.itemsOf(rows.map((r) => Number(r.id)));
    return rows.map((f) => ({
      fulfillment: f,
      items: items.filter((i) => Number(i.fulfillment_id) === Number(f.id)),
    }));
  }

  async update(id: number, patch: FulfillmentPatch): Promise<void> {
    await this.db.updateTable('commerce_fulfillments').set(patch).where('id', '=', id).execute();
  }

  /** Whether the order has a fulfilment that is not canceled. */
  async hasLiveFulfillment(orderId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('commerce_fulfillments')
      .select('id')
      .where('order_id', '=', orderId)
      .where('status', '<>', 'canceled')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setOrder(
    orderId: number,
    patch: { status?: string; payment_status?: string; fulfillment_status?: string; canceled_at?: Date },
    at: Date,
  ): Promise<void> {
    await this.db
      .updateTable('commerce_orders')
      .set({ ...patch, updated_at: at })
      .where('id', '=', orderId)
      .execute();
  }

  /** The order's payments, locked: a cancel settles each once. */
  async lockPayments(orderId: number): Promise<CommercePaymentRow[]> {
    return this.db
      .selectFrom('commerce_payments')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .forUpdate()
      .execute();
  }

  async setPayment(id: number, patch: { status: string; refunded_minor?: number }, at: Date): Promise<void> {
    await this.db
      .updateTable('commerce_payments')
      .set({ ...patch, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  private async itemsOf(ids: readonly number[]): Promise<CommerceFulfillmentItemRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('commerce_fulfillment_items')
      .selectAll()
      .where('fulfillment_id', 'in', ids)
      .orderBy('fulfillment_id')
      .orderBy('order_item_id')
      .execute();
  }
}
