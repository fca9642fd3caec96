import { sql, type Kysely, type Transaction } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';
import { assertBalanced, type LedgerEntry, type LedgerType } from './ledger-book.ts';
import type { CommerceLedgerEntryRow, CommerceLedgerTransactionRow } from './finance-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** What a ledger transaction is about. */
export interface LedgerSubject {
  readonly orderId?: number | null;
  readonly paymentId?: number | null;
  readonly refundId?: number | null;
  readonly disputeId?: number | null;
  readonly payoutId?: number | null;
}

export type LedgerTransaction = Omit<CommerceLedgerTransactionRow, 'id'> & { id: number };
export type LedgerEntryRow = Omit<CommerceLedgerEntryRow, 'id'> & { id: number };

/** Sums of one account in one currency: `matured` counts pending entries whose date has passed. */
export interface AccountSum {
  readonly currency: string;
  readonly account: string;
  readonly matured: boolean;
  readonly amountMinor: number;
}

/** The ledger's SQL: transactions written whole, pages of them, and sums per account. */
export class LedgerRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): LedgerRepository {
    return new LedgerRepository(trx);
  }

  /** Writes a transaction and its entries (which must sum to zero); answers its id. */
  async write(
    orgId: number,
    type: LedgerType,
    currency: string,
    subject: LedgerSubject,
    entries: readonly LedgerEntry[],
    at: Date,
  ): Promise<number> {
    assertBalanced(entries);
    const tx = await this.db
      .insertInto('commerce_ledger_transactions')
      .values({
        org_id: orgId,
        type,
        currency_code: currency,
        order_id: subject.orderId ?? null,
        payment_id: subject.paymentId ?? null,
        refund_id: subject.refundId ?? null,
        dispute_id: subject.disputeId ?? null,
        payout_id: subject.payoutId ?? null,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(tx.id);
    await this.db
      .insertInto('commerce_ledger_entries')
      .values(
        entries
          .filter((e) => e.amountMinor !== 0)
          .map((e) => ({
            transaction_id: id,
            org_id: orgId,
            account: e.account,
            currency_code: currency,
            amount_minor: e.amountMinor,
            available_on: e.availableOn ?? null,
          })),
      )
      .execute();
    return id;
  }

  /** Whether a transaction of this type was written for this payment (and refund or dispute). */
  async exists(type: LedgerType, paymentId: number, refundId: number | null, disputeId: number | null) {
    const row = await this.db
      .selectFrom('commerce_ledger_transactions')
      .select('id')
      .where('type', '=', type)
      .where('payment_id', '=', paymentId)
      .where(sql<number>`COALESCE(refund_id, 0)`, '=', refundId ?? 0)
      .where(sql<number>`COALESCE(dispute_id, 0)`, '=', disputeId ?? 0)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The order's payments with money captured, but those of `except` (gift cards). */
  async capturedPayments(orgId: number, orderId: number, except: string) {
    return this.db
      .selectFrom('commerce_payments')
      .select(['id', 'provider', 'currency_code', 'captured_minor'])
      .where('org_id', '=', orgId)
      .where('order_id', '=', orderId)
      .where('provider', '<>', except)
      .orderBy('id')
      .execute();
  }

  /**
   * A payment's capture and fee as ledgered, and the fee not yet given back (minor units): what a
   * refund's share of the fee is computed from, on the terms of the capture.
   */
  async feeOfPayment(paymentId: number): Promise<{ captured: number; fee: number; feeLeft: number }> {
    const row = await this.db
      .selectFrom('commerce_ledger_entries as e')
      .innerJoin('commerce_ledger_transactions as t', 't.id', 'e.transaction_id')
      .select([
        sql<string>`COALESCE(SUM(CASE WHEN t.type = 'capture' AND e.account = 'pending' THEN e.amount_minor END), 0)`.as(
          'captured',
        ),
        sql<string>`COALESCE(SUM(CASE WHEN t.type = 'fee' AND e.account = 'fees' THEN e.amount_minor END), 0)`.as(
          'fee',
        ),
        sql<string>`COALESCE(SUM(CASE WHEN e.account = 'fees' THEN e.amount_minor END), 0)`.as('fee_left'),
      ])
      .where('t.payment_id', '=', paymentId)
      .executeTakeFirst();
    return {
      captured: Number(row?.captured ?? 0),
      fee: Number(row?.fee ?? 0),
      feeLeft: Number(row?.fee_left ?? 0),
    };
  }

  /** The transactions of a shop, newest first, from before `beforeId`; one more than `limit`. */
  async page(orgId: number, beforeId: number | undefined, limit: number): Promise<LedgerTransaction[]> {
    let q = this.db
      .selectFrom('commerce_ledger_transactions')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id', 'desc')
      .limit(limit + 1);
    if (beforeId !== undefined) q = q.where('id', '<', beforeId);
    return (await q.execute()).map((r) => ({ ...r, id: Number(r.id) }));
  }

  /** The entries of these transactions, by transaction then id. */
  async entriesOf(transactionIds: readonly number[]): Promise<LedgerEntryRow[]> {
    if (transactionIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('commerce_ledger_entries')
      .selectAll()
      .where('transaction_id', 'in', [...transactionIds])
      .orderBy('transaction_id')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), transaction_id: Number(r.transaction_id) }));
  }

  /** Sums per currency and account at `now` (pending entries split by whether their date passed). */
  async sums(orgId: number, now: Date, currency?: string): Promise<AccountSum[]> {
    let q = this.db
      .selectFrom('commerce_ledger_entries')
      .select([
        'currency_code',
        'account',
        sql<boolean>`(available_on IS NOT NULL AND available_on <= ${now})`.as('matured'),
        sql<string>`SUM(amount_minor)`.as('total'),
      ])
      .where('org_id', '=', orgId)
      .groupBy(['currency_code', 'account', sql`3`])
      .orderBy('currency_code');
    if (currency !== undefined) q = q.where('currency_code', '=', currency);
    return (await q.execute()).map((r) => ({
      currency: r.currency_code,
      account: r.account,
      matured: r.matured === true || (r.matured as unknown) === 't',
      amountMinor: Number(r.total),
    }));
  }
}

/**
 * The staff console's insights of a shop, by UTC day (`YYYY-MM-DD`): aggregate queries, one row per
 * day (and currency).
 */
export class CommerceInsightsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Captures less refunds by day and currency (integer minor units): the ledger's `capture` and
   * `refund` transactions seen from the `customer` account (what came in is negative there).
   */
  async capturedLessRefunded(
    orgId: number,
    from: Date,
    before: Date,
  ): Promise<{ day: string; currency: string; amountMinor: number }[]> {
    const day = sql<string>`to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .selectFrom('commerce_ledger_transactions as t')
      .innerJoin('commerce_ledger_entries as e', 'e.transaction_id', 't.id')
      .select([day.as('day'), 't.currency_code', sql<string>`-sum(e.amount_minor)`.as('amount')])
      .where('t.org_id', '=', orgId)
      .where('t.type', 'in', ['capture', 'refund'])
      .where('e.account', '=', 'customer')
      .where('t.created_at', '>=', from)
      .where('t.created_at', '<', before)
      .groupBy([day, 't.currency_code'])
      .execute();
    return rows.map((r) => ({
      day: r.day,
      currency: r.currency_code.toUpperCase(),
      amountMinor: Number(r.amount),
    }));
  }

  /** Orders placed by day. */
  async ordersByDay(orgId: number, from: Date, before: Date): Promise<{ day: string; count: number }[]> {
    const day = sql<string>`to_char(placed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .selectFrom('commerce_orders')
      .select([day.as('day'), sql<string>`count(*)`.as('n')])
      .where('org_id', '=', orgId)
      .where('placed_at', '>=', from)
      .where('placed_at', '<', before)
      .groupBy(day)
      .execute();
    return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
  }
}
