import { invalidField } from '../../kernel/errors/app-error.ts';
import type { PaymentProvider } from '../../kernel/payments/payment-provider.ts';
import type {
  CustomerBilling,
  CustomerListQuery,
  CustomerPaged,
  ProductModeName,
} from './billing-interfaces.ts';
import type { BillingContext } from './billing-context.ts';
import { invalidFilter, invoiceNotFound, invoiceNotRefundable } from './billing-errors.ts';
import {
  BillingRepository,
  CustomerBillingRepository,
  type CustomerInvoiceScope,
} from './billing-repository.ts';
import { CREDIT_CURRENCY, STATUS_FILTERS, type BillingService } from './billing-service.ts';
import type { InvoiceRow, InvoiceStatus, TransactionType } from './billing-tables.ts';
import {
  invoiceSummaryView,
  invoiceView,
  transactionView,
  type InvoiceSummaryView,
  type InvoiceView,
  type TransactionView,
} from './billing-view.ts';
import { majorOf, minorOf } from './money.ts';

/** The largest page of a customer list; a larger `limit` answers this many. */
export const CUSTOMER_LIST_MAX = 500;
export const CUSTOMER_TYPE_FILTERS = [
  'payment',
  'refund',
  'chargeback',
  'credit_add',
  'credit_deduct',
] as const;
const STATUSES: readonly InvoiceStatus[] = ['draft', 'unpaid', 'paid', 'cancelled', 'refunded', 'overdue'];

const clamp = (limit: number): number => Math.min(limit, CUSTOMER_LIST_MAX);
const iso = (d: Date | string): string => new Date(d).toISOString();

function statusesOf(filter: string | undefined): InvoiceStatus[] | null {
  if (filter === undefined) return null;
  if (!(STATUS_FILTERS as readonly string[]).includes(filter))
    throw invalidFilter('status_filter', STATUS_FILTERS);
  return filter === 'open' ? ['unpaid', 'overdue'] : [filter as InvoiceStatus];
}

/** Customers' billing (CustomerBilling): each customer's ledger is its own, scoped by org and customer. */
export class CustomerBillingService implements CustomerBilling {
  private readonly repo: CustomerBillingRepository;
  private readonly invoices: BillingRepository;

  constructor(
    private readonly ctx: BillingContext,
    private readonly billing: BillingService,
    private readonly provider: PaymentProvider,
  ) {
    this.repo = new CustomerBillingRepository(ctx.db);
    this.invoices = new BillingRepository(ctx.db);
  }

  orgInvoices(orgId: number, query: CustomerListQuery & { readonly status_filter?: string }) {
    return this.list({ orgId, customerId: null, ...this.search(query) }, query, true);
  }

  customerInvoices(
    orgId: number,
    customerId: number,
    query: CustomerListQuery & { readonly status_filter?: string },
  ) {
    return this.list({ orgId, customerId, ...this.search(query) }, query, false);
  }

  private search(query: CustomerListQuery): Pick<CustomerInvoiceScope, 'q'> {
    const text = query.q?.trim() ?? '';
    return text === '' ? {} : { q: { text, customerIds: query.customerIds ?? [] } };
  }

  private async list(
    scope: CustomerInvoiceScope,
    query: CustomerListQuery & { readonly status_filter?: string },
    withOutstanding: boolean,
  ): Promise<InvoiceSummaryView[] | CustomerPaged<InvoiceSummaryView>> {
    const statuses = statusesOf(query.status_filter);
    const limit = clamp(query.limit);
    const items = (await this.repo.listInvoices(scope, statuses, limit, query.offset)).map(
      invoiceSummaryView,
    );
    if (query.with_total !== true) return items;
    const per = await this.repo.invoiceCounts(scope);
    const counts: Record<string, number> = {
      all: 0,
      open: (per.get('unpaid') ?? 0) + (per.get('overdue') ?? 0),
    };
    for (const s of STATUSES) {
      counts[s] = per.get(s) ?? 0;
      counts.all! += counts[s];
    }
    const total = statuses === null ? counts.all! : statuses.reduce((n, s) => n + (counts[s] ?? 0), 0);
    const page = { items, total, limit, offset: query.offset, counts };
    if (!withOutstanding) return page;
    const outstanding: Record<string, number> = {};
    for (const [currency, due] of await this.repo.outstanding(scope)) outstanding[currency] = majorOf(due);
    return { ...page, outstanding };
  }

  async customerInvoice(orgId: number, customerId: number, id: number): Promise<InvoiceView> {
    return this.view(await this.found({ orgId, customerId }, id));
  }

  private async found(scope: CustomerInvoiceScope, id: number): Promise<InvoiceRow> {
    const row = await this.repo.findInvoice(scope, id);
    if (row === null) throw invoiceNotFound();
    return row;
  }

  private async view(row: InvoiceRow): Promise<InvoiceView> {
    return invoiceView(row, await this.invoices.lines(row.id));
  }

  async pay(
    orgId: number,
    customerId: number,
    id: number,
    body: { readonly method: 'credit' | 'card'; readonly payment_method?: string },
    key: string | undefined,
  ): Promise<InvoiceView> {
    const invoice = await this.found({ orgId, customerId }, id);
    await this.billing.payOpen(invoice, body, key, {
      userId: invoice.user_id,
      payer: `customer:${customerId}`,
    });
    return this.customerInvoice(orgId, customerId, id);
  }

  /**
   * Gives back what a customer paid: by card through the provider, from credit back to the
   * customer's credit. A `refund` row in the customer's ledger; `refunded` once nothing is left.
   */
  async refund(orgId: number, id: number, amount: string | number | undefined): Promise<InvoiceView> {
    const invoice = await this.found({ orgId, customerId: null }, id);
    if (invoice.status !== 'paid') throw invoiceNotRefundable(`it is ${invoice.status}`);
    const rows = await this.repo.invoiceTransactions(invoice.id);
    const payment = rows.find((r) => r.type === 'payment' || r.type === 'credit_deduct');
    const left = (refunded: number) => invoice.amount_paid_minor - refunded;
    const refundedOf = (rs: typeof rows) =>
      rs.filter((r) => r.type === 'refund').reduce((n, r) => n + r.amount_minor, 0);
    const want = this.refundAmount(amount, left(refundedOf(rows)));
    if (payment === undefined) throw invoiceNotRefundable(`it is ${invoice.status}`);
    const customerId = invoice.customer_id!;
    const toCredit = payment.type === 'credit_deduct';
    let reference: string | null = null;
    if (!toCredit) {
      const done = await this.provider.refund({
        reference: payment.reference ?? '',
        amountMinor: want,
        idempotencyKey: `billing.customer-refund:${invoice.id}:${refundedOf(rows)}:${want}`,
      });
      reference = done.reference;
    }
    const at = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      await repo.lockCustomer(customerId);
      // Another refund meanwhile: never give back more than was paid.
      const refunded = refundedOf(await repo.invoiceTransactions(invoice.id));
      if (want > left(refunded)) throw this.tooMuch(amount, left(refunded));
      const balance = await repo.balance(customerId);
      await new BillingRepository(uow.trx).insertTransaction(
        {
          user_id: invoice.user_id,
          org_id: invoice.org_id,
          customer_id: customerId,
          type: 'refund',
          amount_minor: want,
          credit_delta_minor: toCredit ? want : 0,
          currency: invoice.currency,
          balance_after_minor: toCredit ? balance + want : balance,
          invoice_id: invoice.id,
          gateway: payment.gateway,
          reference,
        },
        at,
      );
      if (refunded + want === invoice.amount_paid_minor)
        await new BillingRepository(uow.trx).setInvoiceStatus(invoice.id, ['paid'], 'refunded');
    });
    return this.view(await this.found({ orgId, customerId: null }, id));
  }

  private refundAmount(amount: string | number | undefined, left: number): number {
    if (amount === undefined) return left;
    const text = typeof amount === 'number' ? String(amount) : amount;
    const minor = /^\d{1,9}(\.\d{1,2})?$/.test(text.trim()) ? minorOf(text) : null;
    if (minor === null || minor <= 0 || minor > left) throw this.tooMuch(amount, left);
    return minor;
  }

  private tooMuch(amount: string | number | undefined, left: number) {
    return invalidField(
      ['body', 'amount'],
      `Should be a decimal greater than 0 and at most ${majorOf(left)} (what is left to refund)`,
      amount ?? null,
    );
  }

  async transactions(
    customerId: number,
    query: CustomerListQuery & { readonly type_filter?: string },
  ): Promise<TransactionView[] | CustomerPaged<TransactionView>> {
    let types: TransactionType[] | null = null;
    if (query.type_filter !== undefined) {
      if (!(CUSTOMER_TYPE_FILTERS as readonly string[]).includes(query.type_filter))
        throw invalidFilter('type_filter', CUSTOMER_TYPE_FILTERS);
      types = [query.type_filter as TransactionType];
    }
    const limit = clamp(query.limit);
    const rows = await this.repo.listTransactions(customerId, types, limit, query.offset);
    const items = rows.map(transactionView);
    if (query.with_total !== true) return items;
    const per = await this.repo.transactionCounts(customerId);
    const counts: Record<string, number> = { all: 0 };
    for (const t of CUSTOMER_TYPE_FILTERS) {
      counts[t] = per.get(t) ?? 0;
      counts.all! += counts[t];
    }
    const total = types === null ? counts.all! : (counts[types[0]!] ?? 0);
    return { items, total, limit, offset: query.offset, counts };
  }

  async credit(customerId: number): Promise<{ balance: number; currency: string }> {
    return { balance: majorOf(await this.repo.balance(customerId)), currency: CREDIT_CURRENCY };
  }

  async productModes(orgId: number) {
    return (await this.repo.productModes(orgId)).map((m) => ({ ...m, updated_at: iso(m.updated_at) }));
  }

  async setProductMode(orgId: number, productId: number, mode: ProductModeName) {
    const at = new Date(this.ctx.clock.now());
    await this.repo.setProductMode(orgId, productId, mode, at);
    return { product_id: productId, mode, updated_at: iso(at) };
  }
}
