import type { InvoiceSummaryView, InvoiceView, TransactionView } from './billing-view.ts';

export type { InvoiceSummaryView, InvoiceView, TransactionView };

/** Who sells a product to an organization's customers under the hybrid mode. */
export type ProductModeName = 'platform_mor' | 'merchant_of_record';

/** A clamped list (`limit`/`offset`) with an optional filter and search. */
export interface CustomerListQuery {
  readonly limit: number;
  readonly offset: number;
  readonly with_total?: boolean;
  /** An invoice number fragment; with `customerIds`, the customers whose email matched it too. */
  readonly q?: string;
  readonly customerIds?: readonly number[];
}

/** A page with its total under the filter and counts per word as if it were unset (`with_total=true`). */
export interface CustomerPaged<T, C = Record<string, number>> {
  readonly items: T[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
  /** Per word and `all`; invoices add `open`. */
  readonly counts: C;
}

/** The organization's invoice counts: per status, `all`, `open`, and `outstanding`, what is due on open invoices per currency. */
export type OrgInvoiceCounts = Record<string, number | Record<string, number>>;

/**
 * Billing of an organization's storefront customers, for the resellers module's routes: the
 * organization's list of its customers' invoices and their refunds, a customer's own invoices,
 * payments, ledger and credit (each customer's ledger is its own), and the hybrid mode's products.
 */
export interface CustomerBilling {
  orgInvoices(
    orgId: number,
    query: CustomerListQuery & { readonly status_filter?: string },
  ): Promise<InvoiceSummaryView[] | CustomerPaged<InvoiceSummaryView, OrgInvoiceCounts>>;
  /** Refunds a paid customer invoice (all that is left by default; `amount` in major units). */
  refund(orgId: number, invoiceId: number, amount: string | number | undefined): Promise<InvoiceView>;
  customerInvoices(
    orgId: number,
    customerId: number,
    query: CustomerListQuery & { readonly status_filter?: string },
  ): Promise<InvoiceSummaryView[] | CustomerPaged<InvoiceSummaryView>>;
  customerInvoice(orgId: number, customerId: number, invoiceId: number): Promise<InvoiceView>;
  pay(
    orgId: number,
    customerId: number,
    invoiceId: number,
    body: { readonly method: 'credit' | 'card'; readonly payment_method?: string },
    key: string | undefined,
  ): Promise<InvoiceView>;
  transactions(
    customerId: number,
    query: CustomerListQuery & { readonly type_filter?: string },
  ): Promise<TransactionView[] | CustomerPaged<TransactionView>>;
  credit(customerId: number): Promise<{ balance: number; currency: string }>;
  productModes(orgId: number): Promise<{ product_id: number; mode: ProductModeName; updated_at: string }[]>;
  setProductMode(
    orgId: number,
    productId: number,
    mode: ProductModeName,
  ): Promise<{ product_id: number; mode: ProductModeName; updated_at: string }>;
}

/** The staff console's insights: an organization's hosting revenue by day. */
export interface BillingInsights {
  /**
   * Hosting revenue from the organization's storefront customers in [from, before), by UTC day
   * (`YYYY-MM-DD`) and currency, integer minor units: invoice totals on the day they were paid, less
   * refunds on the day they were made (several rows may share a day and currency).
   */
  customerInvoiceRevenue(
    orgId: number,
    from: Date,
    before: Date,
  ): Promise<readonly { readonly day: string; readonly currency: string; readonly amountMinor: number }[]>;
}
