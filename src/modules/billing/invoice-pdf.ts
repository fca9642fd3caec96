import type { OwnerScope } from '../../kernel/auth/owner-scope.ts';
import { renderInvoicePdf, type InvoiceDocument } from '../../kernel/documents/invoice-pdf-renderer.ts';
import type { AccountsDirectory } from '../identity/index.ts';
import { invoiceNotFound } from './billing-errors.ts';
import type { BillingRepository } from './billing-repository.ts';
import type { InvoiceLineRow, InvoiceRow } from './billing-tables.ts';
import type { BillingSettings } from './billing-config.ts';

/** An invoice as a PDF: its number names the file. */
export interface InvoicePdf {
  readonly number: string;
  readonly body: Buffer;
}

/** Invoices as PDF documents, read under the same rules as the invoice itself. */
export class InvoicePdfs {
  constructor(
    private readonly repo: BillingRepository,
    private readonly accounts: AccountsDirectory,
    private readonly settings: BillingSettings,
  ) {}

  async pdf(owner: OwnerScope, id: number): Promise<InvoicePdf> {
    const row = await this.repo.findOwned(owner, id, 'read');
    if (row === null) throw invoiceNotFound();
    const [lines, buyers] = await Promise.all([
      this.repo.lines(row.id),
      this.accounts.usersByIds([row.user_id]),
    ]);
    const email = buyers[0]?.email ?? '';
    return {
      number: row.number,
      body: await renderInvoicePdf(invoiceDocument(row, lines, email, this.settings)),
    };
  }
}

/** The plain data the renderer takes; the buyer is the account that placed the order. */
export function invoiceDocument(
  row: InvoiceRow,
  lines: readonly InvoiceLineRow[],
  buyerEmail: string,
  settings: BillingSettings,
): InvoiceDocument {
  return {
    title: 'Invoice',
    number: row.number,
    status: row.status,
    currency: row.currency,
    issuedAt: new Date(row.created_at),
    dueAt: new Date(row.due_at),
    paidAt: row.paid_at === null ? null : new Date(row.paid_at),
    seller: { name: settings.sellerName, address: settings.sellerAddress },
    buyer: { name: buyerEmail, address: [] },
    lines: lines.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      unitAmountMinor: l.unit_amount_minor,
      amountMinor: l.amount_minor,
    })),
    subtotalMinor: row.subtotal_minor,
    taxMinor: row.tax_minor,
    totalMinor: row.total_minor,
    amountPaidMinor: row.amount_paid_minor,
    amountDueMinor: Math.max(0, row.total_minor - row.amount_paid_minor),
  };
}
