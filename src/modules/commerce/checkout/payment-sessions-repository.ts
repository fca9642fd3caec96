import type { Kysely, Transaction } from 'kysely';
import type { CommercePaymentSessionRow, CommerceTables } from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** A cart's payment sessions (commerce_payment_sessions): one per provider, at most. */
export class PaymentSessionsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): PaymentSessionsRepository {
    return new PaymentSessionsRepository(trx);
  }

  async ofCart(cartId: number): Promise<CommercePaymentSessionRow[]> {
    return this.db
      .selectFrom('commerce_payment_sessions')
      .selectAll()
      .where('cart_id', '=', cartId)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  async insert(
    row: Pick<
      CommercePaymentSessionRow,
      'org_id' | 'cart_id' | 'provider' | 'reference' | 'amount_minor' | 'currency_code' | 'status'
    >,
    now: Date,
  ): Promise<CommercePaymentSessionRow> {
    return this.db
      .insertInto('commerce_payment_sessions')
      .values({ ...row, created_at: now, updated_at: now } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async setStatus(id: number, status: string, now: Date): Promise<CommercePaymentSessionRow> {
    return this.db
      .updateTable('commerce_payment_sessions')
      .set({ status, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('commerce_payment_sessions').where('id', '=', id).execute();
  }
}
