import { sql, type Kysely, type Transaction } from 'kysely';
import type { BillingTables, TransactionRow } from './billing-tables.ts';

type Db = Kysely<BillingTables> | Transaction<BillingTables>;

/** What refunds read and write of invoices and the ledger. */
export class RefundRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<BillingTables>): RefundRepository {
    return new RefundRepository(trx);
  }

  /** The ledger rows that paid `invoiceId` (payment, credit_deduct) and gave back (refund), oldest first. */
  async movementsOf(invoiceId: number): Promise<TransactionRow[]> {
    const rows = await this.db
      .selectFrom('billing_transactions')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, amount_minor: Number(r.amount_minor) }) as TransactionRow);
  }

  /**
   * amount_refunded `before` → `before + amount`, `refunded` once it is all amount_paid; false when
   * another refund moved it meanwhile (the caller's reading is stale).
   */
  async addRefunded(id: number, before: number, amount: number): Promise<boolean> {
    const done = await this.db
      .updateTable('billing_invoices')
      .set({
        amount_refunded_minor: sql`amount_refunded_minor + ${amount}`,
        status: sql`CASE WHEN amount_refunded_minor + ${amount} = amount_paid_minor THEN 'refunded' ELSE status END`,
      } as never)
      .where('id', '=', id)
      .where('amount_refunded_minor', '=', before)
      .where('status', '=', 'paid')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }
}
