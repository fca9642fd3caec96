import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import { invoiceOf, transactionOf } from './billing-repository.ts';
import type {
  BillingTables,
  InvoiceRow,
  InvoiceStatus,
  ProductMode,
  SettlementRow,
  TransactionRow,
  TransactionType,
} from './billing-tables.ts';

type Db = Kysely<BillingTables> | Transaction<BillingTables>;

/** Which of an organization's customers' invoices a list reads. */
export interface CustomerInvoiceScope {
  readonly orgId: number;
  /** One customer's (the portal), or every customer's of the organization (null). */
  readonly customerId: number | null;
  /** `q`: an invoice number fragment, or (customerIds) the customers whose email matched. */
  readonly q?: { readonly text: string; readonly customerIds: readonly number[] };
}

type InvoiceQuery = SelectQueryBuilder<BillingTables, 'billing_invoices', object>;

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

  /** The customer's credit: the sum of its own ledger's effects on credit. */
  async balance(customerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('billing_transactions')
      .select(sql<string>`coalesce(sum(credit_delta_minor), 0)`.as('balance'))
      .where('customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    return Number(row.balance);
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

  async listInvoices(
    scope: CustomerInvoiceScope,
    statuses: readonly InvoiceStatus[] | null,
    limit: number,
    offset: number,
  ): Promise<InvoiceRow[]> {
    let q = this.scoped(scope).selectAll();
    if (statuses !== null) q = q.where('status', 'in', [...statuses]);
    const rows = await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => invoiceOf(r as InvoiceRow));
  }

  async invoiceCounts(scope: CustomerInvoiceScope): Promise<Map<string, number>> {
    const rows = await this.scoped(scope)
      .select(['status', sql<string>`count(*)`.as('n')])
      .groupBy('status')
      .execute();
    return new Map(rows.map((r) => [r.status, Number(r.n)]));
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

  async listTransactions(
    customerId: number,
    types: readonly TransactionType[] | null,
    limit: number,
    offset: number,
  ): Promise<TransactionRow[]> {
    let q = this.db.selectFrom('billing_transactions').selectAll().where('customer_id', '=', customerId);
    if (types !== null) q = q.where('type', 'in', [...types]);
    const rows = await q
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => transactionOf(r as TransactionRow));
  }

  async transactionCounts(customerId: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('billing_transactions')
      .select(['type', sql<string>`count(*)`.as('n')])
      .where('customer_id', '=', customerId)
      .groupBy('type')
      .execute();
    return new Map(rows.map((r) => [r.type, Number(r.n)]));
  }

  /** The invoice's ledger rows, oldest first (its payment, then refunds). */
  async invoiceTransactions(invoiceId: number): Promise<TransactionRow[]> {
    const rows = await this.db
      .selectFrom('billing_transactions')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .orderBy('id')
      .execute();
    return rows.map((r) => transactionOf(r as TransactionRow));
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
