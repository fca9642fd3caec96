import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import { ownedRows, type Access, type OwnerScope } from '../../kernel/auth/owner-scope.ts';
import type {
  BillingTables,
  InvoiceLineRow,
  InvoiceRow,
  InvoiceStatus,
  ProductMode,
  SettlementRow,
  TransactionRow,
  TransactionType,
} from './billing-tables.ts';

type Db = Kysely<BillingTables> | Transaction<BillingTables>;

/** Whose money a ledger row moves: a storefront customer's own ledger when customerId is set, else the account's. */
export type Ledger =
  | { readonly userId: number; readonly customerId: number | null }
  | { readonly userId?: undefined; readonly customerId: number };

/** customer_id and seller default to an account's own invoice (null, platform). */
export type NewInvoice = Omit<
  InvoiceRow,
  | 'id'
  | 'number'
  | 'amount_paid_minor'
  | 'amount_refunded_minor'
  | 'paid_at'
  | 'created_at'
  | 'customer_id'
  | 'seller'
> &
  Partial<Pick<InvoiceRow, 'customer_id' | 'seller'>>;
export type NewLine = Omit<InvoiceLineRow, 'id' | 'invoice_id'>;
/** org_id and customer_id default to null: a row of the account's own ledger. */
export type NewTransaction = Omit<TransactionRow, 'id' | 'created_at' | 'org_id' | 'customer_id'> &
  Partial<Pick<TransactionRow, 'org_id' | 'customer_id'>>;

const idOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** bigint columns come back as strings from PostgreSQL: every row is read through these. */
export const invoiceOf = (r: InvoiceRow): InvoiceRow => ({
  ...r,
  id: Number(r.id),
  user_id: Number(r.user_id),
  org_id: idOrNull(r.org_id),
  customer_id: idOrNull(r.customer_id),
  subtotal_minor: Number(r.subtotal_minor),
  tax_minor: Number(r.tax_minor),
  total_minor: Number(r.total_minor),
  amount_paid_minor: Number(r.amount_paid_minor),
  amount_refunded_minor: Number(r.amount_refunded_minor),
});
export const lineOf = (r: InvoiceLineRow): InvoiceLineRow => ({
  ...r,
  id: Number(r.id),
  invoice_id: Number(r.invoice_id),
  unit_amount_minor: Number(r.unit_amount_minor),
  amount_minor: Number(r.amount_minor),
  service_id: r.service_id === null ? null : Number(r.service_id),
});
export const transactionOf = (r: TransactionRow): TransactionRow => ({
  ...r,
  id: Number(r.id),
  user_id: Number(r.user_id),
  org_id: idOrNull(r.org_id),
  customer_id: idOrNull(r.customer_id),
  amount_minor: Number(r.amount_minor),
  credit_delta_minor: Number(r.credit_delta_minor),
  balance_after_minor: Number(r.balance_after_minor),
  invoice_id: r.invoice_id === null ? null : Number(r.invoice_id),
});

type InvoiceQuery = SelectQueryBuilder<BillingTables, 'billing_invoices', object>;

/** A page of the invoices `q` selects, newest first with ties on id, only `statuses` when filtered. */
async function invoicePage(
  q: InvoiceQuery,
  statuses: readonly InvoiceStatus[] | null,
  limit: number,
  offset: number,
): Promise<InvoiceRow[]> {
  let page = q.selectAll();
  if (statuses !== null) page = page.where('status', 'in', [...statuses]);
  const rows = await page
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => invoiceOf(r as InvoiceRow));
}

/** How many of the invoices `q` selects are in each status. */
async function statusCounts(q: InvoiceQuery): Promise<Map<string, number>> {
  const rows = await q
    .select(['status', sql<string>`count(*)`.as('n')])
    .groupBy('status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

/** Invoices, their lines and the ledger; reads of invoices are scoped by the caller. */
export class BillingRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<BillingTables>): BillingRepository {
    return new BillingRepository(trx);
  }

  async insertInvoice(values: NewInvoice, lines: readonly NewLine[], at: Date): Promise<InvoiceRow> {
    const row = await this.db
      .insertInto('billing_invoices')
      .values({
        ...values,
        number: sql`'INV-' || lpad(nextval('billing_invoice_number_seq')::text, 6, '0')`,
        created_at: at,
      } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    const invoice = invoiceOf(row as InvoiceRow);
    await this.db
      .insertInto('billing_invoice_lines')
      .values(lines.map((l) => ({ ...l, invoice_id: invoice.id })) as never)
      .execute();
    return invoice;
  }

  async findOwned(owner: OwnerScope, id: number, access: Access): Promise<InvoiceRow | null> {
    const row = await this.db
      .selectFrom('billing_invoices')
      .selectAll()
      .where('id', '=', id)
      .where(ownedRows(owner, access))
      .where('customer_id', 'is', null)
      .executeTakeFirst();
    return row === undefined ? null : invoiceOf(row as InvoiceRow);
  }

  async findById(id: number): Promise<InvoiceRow | null> {
    const row = await this.db
      .selectFrom('billing_invoices')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? null : invoiceOf(row as InvoiceRow);
  }

  async lines(invoiceId: number): Promise<InvoiceLineRow[]> {
    const rows = await this.db
      .selectFrom('billing_invoice_lines')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .orderBy('id')
      .execute();
    return rows.map((r) => lineOf(r as InvoiceLineRow));
  }

  /** An account's invoices and its organizations' own (never their customers'), as the caller may read them. */
  private owned(owner: OwnerScope): InvoiceQuery {
    return this.db
      .selectFrom('billing_invoices')
      .where(ownedRows(owner, 'read'))
      .where('customer_id', 'is', null);
  }

  listInvoices(
    owner: OwnerScope,
    statuses: readonly InvoiceStatus[] | null,
    limit: number,
    offset: number,
  ): Promise<InvoiceRow[]> {
    return invoicePage(this.owned(owner), statuses, limit, offset);
  }

  invoiceCounts(owner: OwnerScope): Promise<Map<string, number>> {
    return statusCounts(this.owned(owner));
  }

  /**
   * Serialises every credit movement of one account until the transaction ends, so each row's
   * balance_after is the sum of the rows before it.
   */
  async lockAccount(userId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`billing.account:${userId}`}, 0))`.execute(
      this.db,
    );
  }

  /** A ledger's credit balance: the sum of its effects on credit, never a stored number. */
  async balance(ledger: Ledger): Promise<number> {
    const row = await this.ledgerRows(ledger)
      .select(sql<string>`coalesce(sum(credit_delta_minor), 0)`.as('balance'))
      .executeTakeFirstOrThrow();
    return Number(row.balance);
  }

  /**
   * Locks one ledger — a storefront customer's own when `customerId` is set, else the account's —
   * and answers its balance: what every movement of money reads before it writes its row.
   */
  async lockLedger(ledger: Ledger): Promise<number> {
    if (ledger.userId !== undefined && ledger.customerId === null) await this.lockAccount(ledger.userId);
    else await new CustomerBillingRepository(this.db).lockCustomer(ledger.customerId!);
    return this.balance(ledger);
  }

  async insertTransaction(values: NewTransaction, at: Date): Promise<TransactionRow> {
    const row = await this.db
      .insertInto('billing_transactions')
      .values({ ...values, created_at: at } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    return transactionOf(row as TransactionRow);
  }

  /** unpaid|overdue → paid; false when it was not open any more (paid meanwhile). */
  async markPaid(id: number, amountMinor: number, at: Date): Promise<boolean> {
    const done = await this.db
      .updateTable('billing_invoices')
      .set({
        status: 'paid',
        amount_paid_minor: sql`amount_paid_minor + ${amountMinor}`,
        paid_at: at,
      } as never)
      .where('id', '=', id)
      .where('status', 'in', ['unpaid', 'overdue'])
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  /** Services billed on invoices paid since `since` (the start-up catch-up of provisioning). */
  async paidServiceIds(since: Date): Promise<number[]> {
    const rows = await this.db
      .selectFrom('billing_invoice_lines as l')
      .innerJoin('billing_invoices as i', 'i.id', 'l.invoice_id')
      .select('l.service_id')
      .distinct()
      .where('i.status', '=', 'paid')
      .where('i.paid_at', '>=', since)
      .where('l.service_id', 'is not', null)
      .orderBy('l.service_id')
      .execute();
    return rows.map((r) => Number(r.service_id));
  }

  /** One ledger's rows: a storefront customer's own, or an account's (never its customers'). */
  private ledgerRows(ledger: Ledger) {
    const q = this.db.selectFrom('billing_transactions');
    return ledger.userId !== undefined && ledger.customerId === null
      ? q.where('user_id', '=', ledger.userId).where('customer_id', 'is', null)
      : q.where('customer_id', '=', ledger.customerId!);
  }

  async listTransactions(
    ledger: Ledger,
    types: readonly TransactionType[] | null,
    limit: number,
    offset: number,
  ): Promise<TransactionRow[]> {
    let q = this.ledgerRows(ledger).selectAll();
    if (types !== null) q = q.where('type', 'in', [...types]);
    const rows = await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => transactionOf(r as TransactionRow));
  }

  async transactionCounts(ledger: Ledger): Promise<Map<string, number>> {
    const rows = await this.ledgerRows(ledger)
      .select(['type', sql<string>`count(*)`.as('n')])
      .groupBy('type')
      .execute();
    return new Map(rows.map((r) => [r.type, Number(r.n)]));
  }

  // The daily run: the days run and the renewal invoices made.

  /**
   * Takes the day for one process: a day not run yet, or whose last taker's lease lapsed without
   * finishing (it stopped: the run resumes). False when it is finished or another process holds it.
   */
  async claimDay(day: string, now: Date, until: Date): Promise<boolean> {
    const row = await sql<{ day: string }>`
      INSERT INTO billing_runs (day, claimed_until) VALUES (${day}::date, ${until})
      ON CONFLICT (day) DO UPDATE SET claimed_until = excluded.claimed_until
        WHERE billing_runs.finished_at IS NULL AND billing_runs.claimed_until < ${now}
      RETURNING day`.execute(this.db);
    return row.rows.length === 1;
  }

  async finishDay(day: string, at: Date): Promise<void> {
    await sql`UPDATE billing_runs SET finished_at = ${at} WHERE day = ${day}::date`.execute(this.db);
  }

  async renewalExists(serviceId: number, periodStart: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('billing_renewals')
      .select('invoice_id')
      .where('service_id', '=', serviceId)
      .where('period_start', '=', periodStart)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertRenewal(serviceId: number, periodStart: Date, invoiceId: number): Promise<void> {
    await this.db
      .insertInto('billing_renewals')
      .values({ service_id: serviceId, period_start: periodStart, invoice_id: invoiceId })
      .execute();
  }

  async renewalOf(invoiceId: number): Promise<{ serviceId: number; periodStart: Date } | null> {
    const row = await this.db
      .selectFrom('billing_renewals')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    return row === undefined
      ? null
      : { serviceId: Number(row.service_id), periodStart: new Date(row.period_start) };
  }

  /** Open renewal and hourly (in arrears) invoices due before `before`, with their service: the dunning. */
  async openRenewalsDueBefore(before: Date): Promise<{ invoice: InvoiceRow; serviceId: number }[]> {
    const billed = this.db
      .selectFrom('billing_renewals')
      .select(['invoice_id', 'service_id'])
      .unionAll(this.db.selectFrom('billing_hourly_invoices').select(['invoice_id', 'service_id']));
    const rows = await this.db
      .selectFrom(billed.as('r'))
      .innerJoin('billing_invoices as i', 'i.id', 'r.invoice_id')
      .selectAll('i')
      .select('r.service_id')
      .where('i.status', 'in', ['unpaid', 'overdue'])
      .where('i.due_at', '<', before)
      .orderBy('i.id')
      .execute();
    return rows.map((r) => ({
      invoice: { ...(r as unknown as InvoiceRow), id: Number(r.id), total_minor: Number(r.total_minor) },
      serviceId: Number(r.service_id),
    }));
  }

  async setInvoiceStatus(id: number, from: readonly string[], to: string): Promise<boolean> {
    const done = await this.db
      .updateTable('billing_invoices')
      .set({ status: to } as never)
      .where('id', '=', id)
      .where('status', 'in', [...from] as never)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  // Hourly plans in arrears: one invoice per service and month.

  /** The services already invoiced for the month starting at `periodStart`. */
  /** Whether an hourly invoice was made for the service already (any month). */
  async hasHourlyInvoice(serviceId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('billing_hourly_invoices')
      .select('service_id')
      .where('service_id', '=', serviceId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async hourlyInvoicedServices(periodStart: Date): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('billing_hourly_invoices')
      .select('service_id')
      .where('period_start', '=', periodStart)
      .execute();
    return new Set(rows.map((r) => Number(r.service_id)));
  }

  async insertHourlyInvoice(
    serviceId: number,
    periodStart: Date,
    hours: number,
    invoiceId: number,
  ): Promise<void> {
    await this.db
      .insertInto('billing_hourly_invoices')
      .values({ service_id: serviceId, period_start: periodStart, hours, invoice_id: invoiceId })
      .execute();
  }

  /** The service an hourly invoice bills, or null when `invoiceId` is no hourly invoice. */
  async hourlyServiceOf(invoiceId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('billing_hourly_invoices')
      .select('service_id')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    return row === undefined ? null : Number(row.service_id);
  }

  // Refunds.

  /** The ledger rows of one invoice (what paid it, what went back), oldest first. */
  async ledgerOf(invoiceId: number): Promise<TransactionRow[]> {
    const rows = await this.db
      .selectFrom('billing_transactions')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .orderBy('id')
      .execute();
    return rows.map((r) => transactionOf(r as TransactionRow));
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

// Organizations' storefront customers: their invoices, their own ledgers, settlements, product modes.

/** Which of an organization's customers' invoices a list reads. */
export interface CustomerInvoiceScope {
  readonly orgId: number;
  /** One customer's (the portal), or every customer's of the organization (null). */
  readonly customerId: number | null;
  /** `q`: an invoice number fragment, or (customerIds) the customers whose email matched. */
  readonly q?: { readonly text: string; readonly customerIds: readonly number[] };
}

/** The SQL of customers' invoices, their ledgers, settlements and the hybrid mode's product modes. */
export class CustomerBillingRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<BillingTables>): CustomerBillingRepository {
    return new CustomerBillingRepository(trx);
  }

  /** Serialises every movement of one customer's ledger, as lockAccount does for an account. */
  async lockCustomer(customerId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`billing.customer:${customerId}`}, 0))`.execute(
      this.db,
    );
  }

  private scoped(scope: CustomerInvoiceScope): InvoiceQuery {
    let q = this.db
      .selectFrom('billing_invoices')
      .where('org_id', '=', scope.orgId)
      .where('customer_id', 'is not', null);
    if (scope.customerId !== null) q = q.where('customer_id', '=', scope.customerId);
    const search = scope.q;
    if (search !== undefined) {
      const like = `%${search.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) =>
        eb.or([
          eb('number', 'ilike', like),
          ...(search.customerIds.length > 0 ? [eb('customer_id', 'in', [...search.customerIds])] : []),
        ]),
      );
    }
    return q;
  }

  listInvoices(
    scope: CustomerInvoiceScope,
    statuses: readonly InvoiceStatus[] | null,
    limit: number,
    offset: number,
  ): Promise<InvoiceRow[]> {
    return invoicePage(this.scoped(scope), statuses, limit, offset);
  }

  invoiceCounts(scope: CustomerInvoiceScope): Promise<Map<string, number>> {
    return statusCounts(this.scoped(scope));
  }

  /** What is due on open invoices, per currency (minor units). */
  async outstanding(scope: CustomerInvoiceScope): Promise<Map<string, number>> {
    const rows = await this.scoped(scope)
      .select(['currency', sql<string>`sum(total_minor - amount_paid_minor)`.as('due')])
      .where('status', 'in', ['unpaid', 'overdue'])
      .groupBy('currency')
      .orderBy('currency')
      .execute();
    return new Map(rows.map((r) => [r.currency, Number(r.due)]));
  }

  async findInvoice(scope: CustomerInvoiceScope, id: number): Promise<InvoiceRow | null> {
    const row = await this.scoped(scope).selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? null : invoiceOf(row as InvoiceRow);
  }

  async insertSettlement(values: Omit<SettlementRow, 'id'>): Promise<void> {
    await this.db
      .insertInto('billing_settlements')
      .values(values as never)
      .execute();
  }

  async productMode(orgId: number, productId: number): Promise<ProductMode | null> {
    const row = await this.db
      .selectFrom('billing_product_modes')
      .select('mode')
      .where('org_id', '=', orgId)
      .where('product_id', '=', productId)
      .executeTakeFirst();
    return row?.mode ?? null;
  }

  async setProductMode(orgId: number, productId: number, mode: ProductMode, at: Date): Promise<void> {
    await this.db
      .insertInto('billing_product_modes')
      .values({ org_id: orgId, product_id: productId, mode, updated_at: at })
      .onConflict((oc) => oc.columns(['org_id', 'product_id']).doUpdateSet({ mode, updated_at: at }))
      .execute();
  }

  async productModes(orgId: number): Promise<{ product_id: number; mode: ProductMode; updated_at: Date }[]> {
    const rows = await this.db
      .selectFrom('billing_product_modes')
      .select(['product_id', 'mode', 'updated_at'])
      .where('org_id', '=', orgId)
      .orderBy('product_id')
      .execute();
    return rows.map((r) => ({ ...r, product_id: Number(r.product_id) }));
  }

  /** Organizations whose customers got renewal invoices made in [from, to), and how many each. */
  async renewalsPerOrg(from: Date, to: Date): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('billing_renewals as r')
      .innerJoin('billing_invoices as i', 'i.id', 'r.invoice_id')
      .select(['i.org_id', sql<string>`count(*)`.as('n')])
      .where('i.customer_id', 'is not', null)
      .where('i.created_at', '>=', from)
      .where('i.created_at', '<', to)
      .groupBy('i.org_id')
      .orderBy('i.org_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.org_id), Number(r.n)]));
  }
}

/** A day's sum of money in one currency (UTC day `YYYY-MM-DD`, integer minor units). */
export interface DailyMoney {
  readonly day: string;
  readonly currency: string;
  readonly amountMinor: number;
}

/** Totals by day for the staff console's insights: aggregate queries, one row per day and currency. */
export class BillingInsightsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Hosting revenue from the organization's storefront customers, by UTC day and currency: each
   * invoice paid (then, or refunded since) counts its total on the day it was paid, and each refund
   * of one is taken off on the day it was made — so a refund never rewrites a past day.
   */
  async customerInvoiceRevenue(orgId: number, from: Date, before: Date): Promise<DailyMoney[]> {
    const paidDay = sql<string>`to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
    const paid = await this.db
      .selectFrom('billing_invoices')
      .select([paidDay.as('day'), 'currency', sql<string>`sum(total_minor)`.as('amount')])
      .where('org_id', '=', orgId)
      .where('customer_id', 'is not', null)
      .where('status', 'in', ['paid', 'refunded'])
      .where('paid_at', '>=', from)
      .where('paid_at', '<', before)
      .groupBy([paidDay, 'currency'])
      .execute();
    const refundDay = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
    const refunded = await this.db
      .selectFrom('billing_transactions')
      .select([refundDay.as('day'), 'currency', sql<string>`-sum(amount_minor)`.as('amount')])
      .where('org_id', '=', orgId)
      .where('customer_id', 'is not', null)
      .where('type', '=', 'refund')
      .where('created_at', '>=', from)
      .where('created_at', '<', before)
      .groupBy([refundDay, 'currency'])
      .execute();
    return [...paid, ...refunded].map((r) => ({
      day: r.day,
      currency: r.currency.toUpperCase(),
      amountMinor: Number(r.amount),
    }));
  }
}
