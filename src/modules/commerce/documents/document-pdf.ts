import PDFDocument from 'pdfkit';
import { currencyExponent } from '../money/currency-table.ts';
import type { DocumentParty, OrderDocument } from './order-document.ts';

/**
 * Minor units as printed, with the currency's own decimals (money/currency-table.ts):
 * EUR 1234 → `EUR 12.34`, JPY 1200 → `JPY 1,200`, KWD 1500 → `KWD 1.500`. Text arithmetic only.
 */
export function formatAmount(minor: number, currency: string): string {
  const exponent = currencyExponent(currency) ?? 2;
  const digits = String(Math.abs(Math.trunc(minor))).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = exponent === 0 ? '' : `.${digits.slice(-exponent)}`;
  return `${currency} ${minor < 0 ? '-' : ''}${whole}${fraction}`;
}

const TITLE = { invoice: 'Invoice', credit_note: 'Credit note' } as const;
const LEFT = 50;
const RIGHT = 545; // A4 is 595.28 points wide; 50-point margins.
const COL = { description: LEFT, quantity: 260, unit: 300, tax: 385, amount: 465 } as const;
const PAGE_BOTTOM = 760;

/**
 * Renders an order document as a PDF (A4, the standard Helvetica font, so no font file is
 * embedded) from its snapshot alone. Deterministic: the creation and modification dates are the
 * issue time, from which PDFKit derives the file identifier, so a document always gives the same bytes.
 */
export function renderDocumentPdf(d: OrderDocument): Promise<Buffer> {
  const issuedAt = new Date(d.issued_at);
  const pdf = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    compress: true,
    info: {
      Title: `${TITLE[d.type]} ${d.number}`,
      Author: d.seller.name,
      Creator: d.seller.name,
      Producer: 'PDFKit',
      CreationDate: issuedAt,
      ModDate: issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  heading(pdf, d);
  const top = pdf.y + 20;
  party(pdf, 'Seller', d.seller, LEFT, top);
  const afterSeller = pdf.y;
  party(pdf, 'Bill to', d.buyer, 300, top);
  const y = lines(pdf, d, Math.max(afterSeller, pdf.y) + 25);
  totals(pdf, d, y);
  pdf.end();
  return done;
}

function heading(pdf: PDFKit.PDFDocument, d: OrderDocument): void {
  pdf.font('Helvetica-Bold').fontSize(20).text(`${TITLE[d.type]} ${d.number}`, LEFT, 50);
  pdf.font('Helvetica').fontSize(10).moveDown(0.5);
  pdf.text(`Date: ${d.issued_at.slice(0, 10)}`);
  pdf.text(`Order: ${d.order.order_number}`);
  if (d.refers_to !== null) pdf.text(`Corrects invoice: ${d.refers_to}`);
  pdf.text(`Currency: ${d.currency}`);
}

function party(pdf: PDFKit.PDFDocument, label: string, who: DocumentParty, x: number, y: number): void {
  pdf.font('Helvetica-Bold').text(label, x, y, { width: 245 });
  pdf.font('Helvetica');
  const rows = [
    who.name,
    ...who.address,
    ...(who.email !== null ? [who.email] : []),
    ...(who.vat_id !== null ? [`VAT ID: ${who.vat_id}`] : []),
  ];
  for (const text of rows) if (text !== '') pdf.text(text, x, pdf.y, { width: 245 });
}

/** The lines table; answers where it ends. */
function lines(pdf: PDFKit.PDFDocument, d: OrderDocument, start: number): number {
  const money = (minor: number | null): string => (minor === null ? '' : formatAmount(minor, d.currency));
  let y = start;
  pdf.font('Helvetica-Bold');
  row(pdf, y, ['Description', 'Qty', 'Unit price', 'Tax', 'Amount']);
  y += 16;
  pdf
    .moveTo(LEFT, y - 3)
    .lineTo(RIGHT, y - 3)
    .stroke();
  pdf.font('Helvetica');
  for (const line of d.lines) {
    const description = line.sku === null ? line.description : `${line.description} (${line.sku})`;
    const height = pdf.heightOfString(description, { width: COL.quantity - LEFT - 10 });
    if (y + height > PAGE_BOTTOM) {
      pdf.addPage();
      y = 50;
    }
    row(pdf, y, [
      description,
      String(line.quantity),
      money(line.unit_price_minor),
      money(line.tax_minor),
      money(line.amount_minor),
    ]);
    y += Math.max(height, 12) + 6;
  }
  pdf.moveTo(LEFT, y).lineTo(RIGHT, y).stroke();
  return y + 10;
}

function totals(pdf: PDFKit.PDFDocument, d: OrderDocument, start: number): void {
  const t = d.totals;
  const rate = d.tax_rate === null ? '' : ` (${d.tax_rate}%)`;
  const rows: [string, number, boolean][] = [
    ['Subtotal', t.subtotal_minor, false],
    ...(t.shipping_minor !== 0 ? [['Shipping', t.shipping_minor, false] as [string, number, boolean]] : []),
    ...(t.discount_minor !== 0 ? [['Discount', -t.discount_minor, false] as [string, number, boolean]] : []),
    [d.tax_inclusive ? `Tax included${rate}` : `Tax${rate}`, t.tax_minor, false],
    [d.type === 'credit_note' ? 'Total refunded' : 'Total', t.total_minor, true],
  ];
  let y = start;
  if (y + rows.length * 16 > PAGE_BOTTOM) {
    pdf.addPage();
    y = 50;
  }
  for (const [label, minor, bold] of rows) {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    pdf.text(label, COL.unit, y, { width: COL.amount - COL.unit - 10, lineBreak: false });
    pdf.text(formatAmount(minor, d.currency), COL.amount, y, {
      width: RIGHT - COL.amount,
      align: 'right',
      lineBreak: false,
    });
    y += 16;
  }
}

function row(pdf: PDFKit.PDFDocument, y: number, cells: [string, string, string, string, string]): void {
  const [description, quantity, unit, tax, amount] = cells;
  pdf.text(description, COL.description, y, { width: COL.quantity - LEFT - 10 });
  pdf.text(quantity, COL.quantity, y, { width: COL.unit - COL.quantity - 5, align: 'right' });
  pdf.text(unit, COL.unit, y, { width: COL.tax - COL.unit - 5, align: 'right' });
  pdf.text(tax, COL.tax, y, { width: COL.amount - COL.tax - 5, align: 'right' });
  pdf.text(amount, COL.amount, y, { width: RIGHT - COL.amount, align: 'right' });
}
