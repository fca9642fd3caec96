import { invalidField } from '../../kernel/errors/app-error.ts';
import type {
  CustomerBilling,
  CustomerListQuery,
  CustomerPaged,
  OrgInvoiceCounts,
  ProductModeName,
} from './billing-interfaces.ts';
import type { BillingContext } from './billing-context.ts';
import { invoiceNotFound } from './billing-errors.ts';
import {
  BillingRepository,
  CustomerBillingRepository,
  type CustomerInvoiceScope,
} from './billing-repository.ts';
import { CREDIT_CURRENCY, type BillingService } from './billing-service.ts';
import { invoiceTotals, statusesOf, transactionTotals, typesOf } from './list-totals.ts';
import type { InvoiceRow } from './billing-tables.ts';
import {
  invoiceSummaryView,
  invoiceView,
  transactionView,
  type InvoiceSummaryView,
  type InvoiceView,
  type TransactionView,
} from './billing-view.ts';
import { amountOf, majorOf } from './money.ts';

/** The largest page of a customer list; a larger `limit` answers this many. */
export const CUSTOMER_LIST_MAX = 500;
export const CUSTOMER_TYPE_FILTERS = [
  'payment',
  'refund',
  'chargeback',
  'credit_add',
  'credit_deduct',
] as const;
const clamp = (limit: number): number => Math.min(limit, CUSTOMER_LIST_MAX);
const iso = (d: Date | string): string => new Date(d).toISOString();

/** Customers' billing (CustomerBilling): each customer's ledger is its own, scoped by org and customer. */
export class CustomerBillingService implements CustomerBilling {
  private readonly repo: CustomerBillingRepository;
  private readonly invoices: BillingRepository;

  constructor(
    private readonly ctx: BillingContext,
    private readonly billing: BillingService,
  ) {
    this.repo = new CustomerBillingRepository(ctx.db);
    this.invoices = new BillingRepository(ctx.db);
  }

  /** The organization's customers' invoices; its counts add `outstanding`, what is due per currency. */
  async orgInvoices(
    orgId: number,
    query: CustomerListQuery & { readonly status_filter?: string },
  ): Promise<InvoiceSummaryView[] | CustomerPaged<InvoiceSummaryView, OrgInvoiceCounts>> {
    const scope = { orgId, customerId: null, ...this.search(query) };
    const page = await this.list(scope, query);
    if (Array.isArray(page)) return page;
    const outstanding: Record<string, number> = {};
    for (const [currency, due] of await this.repo.outstanding(scope)) outstanding[currency] = majorOf(due);
    return { ...page, counts: { ...page.counts, outstanding } };
  }

  customerInvoices(
    orgId: number,
    customerId: number,
    query: CustomerListQuery & { readonly status_filter?: string },
  ) {
    return this.list({ orgId, customerId, ...this.search(query) }, query);
  }

  private search(query: CustomerListQuery): Pick<CustomerInvoiceScope, 'q'> {
    const text = query.q?.trim() ?? '';
    return text === '' ? {} : { q: { text, customerIds: query.customerIds ?? [] } };
  }

  private async list(
    scope: CustomerInvoiceScope,
    query: CustomerListQuery & { readonly status_filter?: string },
  ): Promise<InvoiceSummaryView[] | CustomerPaged<InvoiceSummaryView>> {
    const statuses = statusesOf(query.status_filter);
    const limit = clamp(query.limit);
    const items = (await this.repo.listInvoices(scope, statuses, limit, query.offset)).map(
      invoiceSummaryView,
    );
    if (query.with_total !== true) return items;
    const { total, counts } = invoiceTotals(await this.repo.invoiceCounts(scope), statuses);
    return { items, total, limit, offset: query.offset, counts };
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
   * Gives back what a customer paid (all that is left by default): by card through the provider,
   * a payment from credit back to the customer's credit (InvoiceRefunds, as an operator's refund).
   */
  async refund(orgId: number, id: number, amount: string | number | undefined): Promise<InvoiceView> {
    const invoice = await this.found({ orgId, customerId: null }, id);
    await this.billing.refund(invoice.id, amount === undefined ? null : minorOfAmount(amount), 'original');
    return this.view(await this.found({ orgId, customerId: null }, id));
  }

  async transactions(
    customerId: number,
    query: CustomerListQuery & { readonly type_filter?: string },
  ): Promise<TransactionView[] | CustomerPaged<TransactionView>> {
    const types = typesOf(query.type_filter, CUSTOMER_TYPE_FILTERS);
    const limit = clamp(query.limit);
    const rows = await this.invoices.listTransactions({ customerId }, types, limit, query.offset);
    const items = rows.map(transactionView);
    if (query.with_total !== true) return items;
    const per = await this.invoices.transactionCounts({ customerId });
    const { total, counts } = transactionTotals(per, CUSTOMER_TYPE_FILTERS, types, false);
    return { items, total, limit, offset: query.offset, counts };
  }

  async credit(customerId: number): Promise<{ balance: number; currency: string }> {
    return { balance: majorOf(await this.invoices.balance({ customerId })), currency: CREDIT_CURRENCY };
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

/** A refund's `amount` (major units, at most 2 decimals) in minor units; the bounds are InvoiceRefunds'. */
function minorOfAmount(amount: string | number): number {
  const minor = amountOf(amount);
  if (minor === null || minor <= 0)
    throw invalidField(
      ['body', 'amount'],
      'Should be a decimal greater than 0 with at most 2 decimals',
      amount,
    );
  return minor;
}
