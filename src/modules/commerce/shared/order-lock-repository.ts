import type { Kysely, Transaction } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';

/** What a fulfilment, a cancel or a refund needs of its order, read under the order row's lock. */
export interface LockedOrder {
  readonly id: number;
  readonly order_number: string;
  readonly status: string;
  readonly payment_status: string;
  readonly currency: string;
}

/**
 * Locks an order's row for the rest of the transaction (`FOR UPDATE`): the one lock that orders
 * fulfilments, cancels and refunds of the same order one after another.
 */
export async function lockOrderRow(
  db: Kysely<CommerceTables> | Transaction<CommerceTables>,
  orgId: number,
  orderId: number,
): Promise<LockedOrder | null> {
  const row = await db
    .selectFrom('commerce_orders')
    .select(['id', 'order_number', 'status', 'payment_status', 'currency'])
    .where('org_id', '=', orgId)
    .where('id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
  return row === undefined ? null : { ...row, id: Number(row.id) };
}
