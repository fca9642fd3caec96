import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  CommerceOrderExtraRow,
  CommerceOrderNoteRow,
  CommerceOrderCheckoutRow,
  CommerceOrderRow,
  CommerceTables,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export type OrderRow = CommerceOrderRow &
  CommerceOrderExtraRow &
  Pick<CommerceOrderCheckoutRow, 'display_id' | 'payment_status' | 'fulfillment_status' | 'canceled_at'>;

/** One order of an organization, its edits and notes. */
export class OrderEditsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): OrderEditsRepository {
    return new OrderEditsRepository(trx);
  }

  async order(orgId: number, id: number): Promise<OrderRow | null> {
    const row = await this.db
      .selectFrom('commerce_orders')
      .selectAll()
      .select(sql<string>`total::text`.as('total'))
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  async notes(orderId: number): Promise<CommerceOrderNoteRow[]> {
    return this.db
      .selectFrom('commerce_order_notes')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
  }

  async update(
    orgId: number,
    id: number,
    patch: { email?: string | null; metadata?: Record<string, unknown> },
    at: Date,
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('commerce_orders')
      .set({
        ...(patch.email !== undefined ? { email: patch.email } : {}),
        ...(patch.metadata !== undefined ? { metadata: JSON.stringify(patch.metadata) as never } : {}),
        updated_at: at,
      })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async addNote(
    orgId: number,
    orderId: number,
    body: string,
    author: string,
    at: Date,
  ): Promise<CommerceOrderNoteRow> {
    return this.db
      .insertInto('commerce_order_notes')
      .values({ org_id: orgId, order_id: orderId, body, author, created_at: at } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
