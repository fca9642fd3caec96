import type { JsonView } from '../../kernel/http/view-schemas.ts';
import type { InvoiceLineRow, InvoiceRow, TransactionRow } from './billing-tables.ts';
import { majorOf } from './money.ts';

const iso = (d: Date | string): string => new Date(d).toISOString();
const iso0 = (d: Date | string | null): string | null => (d === null ? null : iso(d));

type MoneyFields =
  'subtotal_minor' | 'tax_minor' | 'total_minor' | 'amount_paid_minor' | 'amount_refunded_minor';

type Hidden = 'user_id' | 'org_id' | MoneyFields;

/** Money of an invoice in major units (numbers, as the catalogue's `price`), and what is still due. */
interface InvoiceMoney {
  subtotal: number;
  tax: number;
  total: number;
  amount_paid: number;
  amount_due: number;
  /** What of amount_paid went back to the payer. */
  amount_refunded: number;
}

/** An invoice in a list: its row without the holder, its money. */
export type InvoiceSummaryView = JsonView<Omit<InvoiceRow, Hidden>> & InvoiceMoney;

export type InvoiceLineView = JsonView<
  Omit<InvoiceLineRow, 'id' | 'invoice_id' | 'unit_amount_minor' | 'amount_minor'>
> & {
  unit_amount: number;
  amount: number;
};

/** One invoice: the summary, its lines and the services it pays for. */
export type InvoiceView = JsonView<Omit<InvoiceRow, Hidden>> &
  InvoiceMoney & { lines: InvoiceLineView[]; service_ids: number[] };

/** A ledger row as answered: what moved and the credit balance after it. */
export type TransactionView = JsonView<
  Omit<
    TransactionRow,
    | 'user_id'
    | 'org_id'
    | 'customer_id'
    | 'amount_minor'
    | 'credit_delta_minor'
    | 'balance_after_minor'
    | 'reference'
  >
> & { amount: number; balance_after: number };

export function invoiceSummaryView(r: InvoiceRow): InvoiceSummaryView {
  return {
    id: r.id,
    number: r.number,
    customer_id: r.customer_id,
    seller: r.seller,
    status: r.status,
    currency: r.currency,
    subtotal: majorOf(r.subtotal_minor),
    tax: majorOf(r.tax_minor),
    total: majorOf(r.total_minor),
    amount_paid: majorOf(r.amount_paid_minor),
    amount_due: majorOf(Math.max(0, r.total_minor - r.amount_paid_minor)),
    amount_refunded: majorOf(r.amount_refunded_minor),
    due_at: iso(r.due_at),
    paid_at: iso0(r.paid_at),
    created_at: iso(r.created_at),
  };
}

export function invoiceView(r: InvoiceRow, lines: readonly InvoiceLineRow[]): InvoiceView {
  const serviceIds = [...new Set(lines.flatMap((l) => (l.service_id === null ? [] : [l.service_id])))];
  return {
    ...invoiceSummaryView(r),
    lines: lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unit_amount: majorOf(l.unit_amount_minor),
      amount: majorOf(l.amount_minor),
      service_id: l.service_id,
    })),
    service_ids: serviceIds,
  };
}

export function transactionView(t: TransactionRow): TransactionView {
  return {
    id: t.id,
    type: t.type,
    amount: majorOf(t.amount_minor),
    currency: t.currency,
    balance_after: majorOf(t.balance_after_minor),
    invoice_id: t.invoice_id,
    gateway: t.gateway,
    created_at: iso(t.created_at),
  };
}
