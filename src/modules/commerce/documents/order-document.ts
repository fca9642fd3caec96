/**
 * An order document as issued (docs/commerce.md, "Order documents"): the snapshot stored in
 * `commerce_order_documents.snapshot` and everything its view and its PDF show. Amounts are
 * integer minor units of `currency`. Once issued it never changes: nothing reads the live order
 * again to show it.
 */
export type DocumentKind = 'invoice' | 'credit_note';

export interface DocumentParty {
  readonly name: string;
  /** Postal address, one line per entry (may be empty). */
  readonly address: readonly string[];
  readonly email: string | null;
  readonly vat_id: string | null;
}

/** Who sells: the platform as merchant of record, or the organization itself. */
export interface DocumentSeller extends DocumentParty {
  readonly type: 'platform' | 'organization';
}

export interface DocumentLine {
  readonly description: string;
  readonly sku: string | null;
  readonly quantity: number;
  /** Null where a refund's amount for several units is not a whole multiple of one unit. */
  readonly unit_price_minor: number | null;
  /** Null on credit notes: their tax is the order's tax in proportion (totals). */
  readonly tax_minor: number | null;
  readonly amount_minor: number;
}

export interface DocumentTotals {
  readonly subtotal_minor: number;
  readonly shipping_minor: number;
  readonly discount_minor: number;
  readonly tax_minor: number;
  readonly total_minor: number;
}

export interface OrderDocument {
  readonly type: DocumentKind;
  readonly number: string;
  /** ISO 8601, from the module clock. */
  readonly issued_at: string;
  readonly currency: string;
  readonly order: { readonly id: number; readonly order_number: string };
  /** The invoice a credit note corrects (null on an invoice, or when the order had none). */
  readonly refers_to: string | null;
  readonly seller: DocumentSeller;
  readonly buyer: DocumentParty;
  /** Prices include the tax (the order's region was tax inclusive): the tax is within the total. */
  readonly tax_inclusive: boolean;
  /** The region's rate in percent when the document was issued; null without a region. */
  readonly tax_rate: number | null;
  readonly lines: readonly DocumentLine[];
  readonly totals: DocumentTotals;
}

const PREFIX: Record<DocumentKind, string> = { invoice: 'INV', credit_note: 'CN' };

/** `INV-2026-000123`, `CN-2026-000045`: the kind, the year, the seller's count in it. */
export function documentNumber(kind: DocumentKind, year: number, n: number): string {
  return `${PREFIX[kind]}-${year}-${String(n).padStart(6, '0')}`;
}

/** The file name and path segment of a document: its number (letters, digits and dashes). */
export const DOCUMENT_NUMBER_PATTERN = '^(INV|CN)-[0-9]{4}-[0-9]{6,}$';

/** `part × numerator / denominator` rounded half up, exact in integers (tax shares of a refund). */
export function shareOf(part: number, numerator: number, denominator: number): number {
  if (denominator <= 0) return 0;
  const n = BigInt(part) * BigInt(numerator) * 2n + BigInt(denominator);
  return Number(n / (2n * BigInt(denominator)));
}
