import type { Kysely, Transaction } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';
import type { CommercePayoutRow } from './finance-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;
export type PayoutRow = Omit<CommercePayoutRow, 'id'> & { id: number };

/** Payouts' SQL, and the per-currency lock a payout holds while it checks the balance. */
export class PayoutsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): PayoutsRepository {
    return new PayoutsRepository(trx);
  }

  /** Holds the shop's balance in `currency` until the transaction ends (payouts one at a time). */
  async lockBalance(orgId: number, currency: string): Promise<void> {
    await this.db
      .insertInto('commerce_balance_locks')
      .values({ org_id: orgId, currency_code: currency })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await this.db
      .selectFrom('commerce_balance_locks')
      .select('org_id')
      .where('org_id', '=', orgId)
      .where('currency_code', '=', currency)
      .forUpdate()
      .execute();
  }

  /** Where the next payout's period starts: the last one's end, else the first ledger entry's time. */
  async periodStart(orgId: number, currency: string, now: Date): Promise<Date> {
    const last = await this.db
      .selectFrom('commerce_payouts')
      .select('period_end')
      .where('org_id', '=', orgId)
      .where('currency_code', '=', currency)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last !== undefined) return last.period_end;
    const first = await this.db
      .selectFrom('commerce_ledger_transactions')
      .select('created_at')
      .where('org_id', '=', orgId)
      .where('currency_code', '=', currency)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return first?.created_at ?? now;
  }

  async insert(p: Omit<CommercePayoutRow, 'id'>): Promise<PayoutRow> {
    const r = await this.db.insertInto('commerce_payouts').values(p).returningAll().executeTakeFirstOrThrow();
    return { ...r, id: Number(r.id) };
  }

  async page(orgId: number, beforeId: number | undefined, limit: number): Promise<PayoutRow[]> {
    let q = this.db
      .selectFrom('commerce_payouts')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (beforeId !== undefined) q = q.where('id', '<', beforeId);
    return (await q.execute()).map((r) => ({ ...r, id: Number(r.id) }));
  }
}
