import PDFDocument from 'pdfkit';

/** A party on a document: who sells (the platform) or who buys (an account). */
export interface DocumentParty {
  readonly name: string;
  /** Postal address, one line per entry (may be empty). */
  readonly address: readonly string[];
  readonly email?: string | null;
}

/** A line of an invoice-like document. Money in integer minor units (two decimals). */
export interface DocumentLine {
  readonly description: string;
  readonly quantity: number;
  readonly unitAmountMinor: number;
  readonly amountMinor: number;
}

/**
 * What an invoice PDF shows, as plain data: billing's invoices and the shop's order documents both
 * fill it; the renderer reads nothing else (no clock, no database).
 */
export interface InvoiceDocument {
  /** `Invoice`, `Order confirmation`, … */
  readonly title: string;
  readonly number: string;
  readonly status: string;
  /** ISO 4217 code, e.g. `EUR`. */
  readonly currency: string;
  /** Also the PDF's creation date, so one document always renders the same bytes. */
  readonly issuedAt: Date;
  readonly dueAt: Date | null;
  readonly paidAt: Date | null;
  readonly seller: DocumentParty;
  readonly buyer: DocumentParty;
  readonly lines: readonly DocumentLine[];
  readonly subtotalMinor: number;
  readonly taxMinor: number;
  readonly totalMinor: number;
  readonly amountPaidMinor: number;
  readonly amountDueMinor: number;
}

/** 400 → `EUR 4.00`, 1999 → `EUR 19.99`: integer arithmetic, never a float's rounding. */
export function formatMoney(currency: string, minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minor));
  const major = Math.floor(abs / 100).toLocaleString('en-US');
  return `${currency} ${sign}${major}.${String(abs % 100).padStart(2, '0')}`;
}

const day = (d: Date): string => d.toISOString().slice(0, 10);

const LEFT = 50;
const RIGHT = 545; // A4 is 595.28 points wide; 50-point margins.
const COLUMNS = { description: LEFT, quantity: 300, unit: 350, amount: 450 } as const;

/**
 * Renders an invoice-like document as a PDF (A4, the standard Helvetica font, so no font file is
 * embedded). Deterministic: the creation and modification dates are `issuedAt`, and PDFKit derives
 * the trailer's file identifier (ISO 32000-1 §14.4) from those dates, so the same document gives
 * the same bytes.
 */
export function renderInvoicePdf(document: InvoiceDocument): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    compress: true,
    info: {
      Title: `${document.title} ${document.number}`,
      Author: document.seller.name,
      Creator: document.seller.name,
      Producer: 'PDFKit',
      CreationDate: document.issuedAt,
      ModDate: document.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const money = (minor: number): string => formatMoney(document.currency, minor);

  pdf.font('Helvetica-Bold').fontSize(20).text(`${document.title} ${document.number}`, LEFT, 50);
  pdf.font('Helvetica').fontSize(10).moveDown(0.5);
  pdf.text(`Status: ${document.status}`);
  pdf.text(`Date: ${day(document.issuedAt)}`);
  if (document.dueAt !== null) pdf.text(`Due: ${day(document.dueAt)}`);
  if (document.paidAt !== null) pdf.text(`Paid: ${day(document.paidAt)}`);

  const partiesTop = pdf.y + 20;
  party(pdf, 'From', document.seller, LEFT, partiesTop);
  const afterSeller = pdf.y;
  party(pdf, 'Bill to', document.buyer, 300, partiesTop);
  let y = Math.max(afterSeller, pdf.y) + 25;

  pdf.font('Helvetica-Bold');
  row(pdf, y, 'Description', 'Qty', 'Unit price', 'Amount');
  y += 16;
  pdf
    .moveTo(LEFT, y - 3)
    .lineTo(RIGHT, y - 3)
    .stroke();
  pdf.font('Helvetica');
  for (const line of document.lines) {
    if (y > 740) {
      pdf.addPage();
      y = 50;
    }
    const height = pdf.heightOfString(line.description, { width: COLUMNS.quantity - LEFT - 10 });
    row(
      pdf,
      y,
      line.description,
      String(line.quantity),
      money(line.unitAmountMinor),
      money(line.amountMinor),
    );
    y += Math.max(height, 12) + 6;
  }
  pdf.moveTo(LEFT, y).lineTo(RIGHT, y).stroke();
  y += 10;
  for (const [label, minor, bold] of [
    ['Subtotal', document.subtotalMinor, false],
    ['Tax', document.taxMinor, false],
    ['Total', document.totalMinor, true],
    ['Amount paid', document.amountPaidMinor, false],
    ['Amount due', document.amountDueMinor, true],
  ] as const) {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    pdf.text(label, COLUMNS.unit, y, { width: COLUMNS.amount - COLUMNS.unit - 10, lineBreak: false });
    pdf.text(money(minor), COLUMNS.amount, y, {
      width: RIGHT - COLUMNS.amount,
      align: 'right',
      lineBreak: false,
    });
    y += 16;
  }
  pdf.end();
  return done;
}

function party(pdf: PDFKit.PDFDocument, label: string, who: DocumentParty, x: number, y: number): void {
  pdf.font('Helvetica-Bold').text(label, x, y, { width: 245 });
  pdf.font('Helvetica');
  for (const text of [who.name, ...who.address, ...(who.email ? [who.email] : [])]) {
    if (text !== '') pdf.text(text, x, pdf.y, { width: 245 });
  }
}

function row(pdf: PDFKit.PDFDocument, y: number, ...cells: [string, string, string, string]): void {
  const [description, quantity, unit, amount] = cells;
  pdf.text(description, COLUMNS.description, y, { width: COLUMNS.quantity - LEFT - 10 });
  pdf.text(quantity, COLUMNS.quantity, y, { width: COLUMNS.unit - COLUMNS.quantity - 10, align: 'right' });
  pdf.text(unit, COLUMNS.unit, y, { width: COLUMNS.amount - COLUMNS.unit - 10, align: 'right' });
  pdf.text(amount, COLUMNS.amount, y, { width: RIGHT - COLUMNS.amount, align: 'right' });
}
