/** The billing module's tables as Kysely sees them (migrations/*_billing.sql). Money: integer minor units. */

export type InvoiceStatus = 'draft' | 'unpaid' | 'paid' | 'cancelled' | 'refunded' | 'overdue';
export type TransactionType = 'payment' | 'refund' | 'chargeback' | 'credit_add' | 'credit_deduct';
/** Who sells on an invoice: the platform, or (merchant_of_record) the organization to its customer. */
export type InvoiceSeller = 'platform' | 'organization';
/** Who sells a product to an organization's customers under the hybrid mode. */
export type ProductMode = 'platform_mor' | 'merchant_of_record';

export interface InvoiceRow {
  id: number;
  /** `INV-000001`, one numbering per deployment. */
  number: string;
  user_id: number;
  org_id: number | null;
  /** The organization's storefront customer who pays it (org_id set), else null. */
  customer_id: number | null;
  seller: InvoiceSeller;
  status: InvoiceStatus;
  currency: string;
  subtotal_minor: number;
  tax_minor: number;
  total_minor: number;
  amount_paid_minor: number;
  /** What of amount_paid went back (to credit or to the card); the invoice is `refunded` once it is all. */
  amount_refunded_minor: number;
  due_at: Date;
  paid_at: Date | null;
  created_at: Date;
}

export interface InvoiceLineRow {
  id: number;
  invoice_id: number;
  description: string;
  quantity: number;
  unit_amount_minor: number;
  amount_minor: number;
  service_id: number | null;
}

/**
 * One movement of money (the ledger). `amount_minor` > 0 is what moved; `credit_delta_minor` is its
 * effect on the account's credit (+ credit_add, − credit_deduct, 0 for card payments, + for a refund to credit, 0 for one to the card).
 */
export interface TransactionRow {
  id: number;
  user_id: number;
  org_id: number | null;
  /** Set: a row of the customer's own ledger, never counted in the account's balance. */
  customer_id: number | null;
  type: TransactionType;
  amount_minor: number;
  credit_delta_minor: number;
  currency: string;
  balance_after_minor: number;
  invoice_id: number | null;
  /** `manual`, `stripe`, or `credit` for a payment from credit. */
  gateway: string;
  reference: string | null;
  created_at: Date;
}

/** A day of the daily run: claimed by one process until `claimed_until`, done at `finished_at`. */
export interface BillingRunRow {
  day: string;
  claimed_until: Date;
  finished_at: Date | null;
}

/** A renewal invoice: one per service and period (the next_due_date it renews from). */
export interface BillingRenewalRow {
  service_id: number;
  period_start: Date;
  invoice_id: number;
}

/** The organization's share of a customer payment under platform_mor. */
export interface SettlementRow {
  id: number;
  invoice_id: number;
  org_id: number;
  gross_minor: number;
  fee_minor: number;
  net_minor: number;
  currency: string;
  created_at: Date;
}

export interface ProductModeRow {
  org_id: number;
  product_id: number;
  mode: ProductMode;
  updated_at: Date;
}

/** An hourly plan's invoice in arrears: one per service and month (period_start, its first instant). */
export interface BillingHourlyInvoiceRow {
  service_id: number;
  period_start: Date;
  hours: number;
  invoice_id: number;
}

export interface BillingTables {
  billing_invoices: InvoiceRow;
  billing_invoice_lines: InvoiceLineRow;
  billing_transactions: TransactionRow;
  billing_runs: BillingRunRow;
  billing_renewals: BillingRenewalRow;
  billing_settlements: SettlementRow;
  billing_product_modes: ProductModeRow;
  billing_hourly_invoices: BillingHourlyInvoiceRow;
}
