/**
 * Invoice PDFs over real HTTP (embedded database, or PostgreSQL and Redis): the document's bytes
 * are a PDF whose text (pdftotext, poppler-utils) holds the number, the lines, the totals and the
 * amount due; the route reads as the invoice's JSON read does (an organization's members, never
 * another tenant); the renderer gives the same bytes for the same document.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatMoney,
  renderInvoicePdf,
  type InvoiceDocument,
} from '../../kernel/documents/invoice-pdf-renderer.ts';
import { ConfigError, loadConfig } from '../../kernel/config/load-config.ts';
import { addMember, createOrg } from '../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { billingConfig } from './billing-config.ts';

const run = promisify(execFile);
const DNS_PRO = { product_id: 2, pricing_id: 2 };
const B = '/api/v1/billing';

/** The text of a PDF as pdftotext reads it, laid out as printed. */
async function textOf(pdf: Buffer): Promise<string> {
  const child = run('pdftotext', ['-layout', '-', '-']);
  child.child.stdin!.end(pdf);
  return (await child).stdout;
}

/** The document information dictionary as pdfinfo reads it (ISO 8601 dates). */
async function infoOf(pdf: Buffer): Promise<string> {
  const child = run('pdfinfo', ['-isodates', '-']);
  child.child.stdin!.end(pdf);
  return (await child).stdout;
}

describe('invoice PDF', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ROLE: 'api',
        BILLING_SELLER_NAME: 'Example Hosting SRL',
        BILLING_SELLER_ADDRESS: '1 Rue Neuve; 1000 Brussels',
      },
    });
  });
  afterAll(async () => t?.close());

  const fetchPdf = (token: string, id: number) =>
    fetch(`${t.url}${B}/invoices/${id}/pdf`, { headers: { authorization: `Bearer ${token}` } });
  const order = async (token: string, body: unknown = DNS_PRO): Promise<number> => {
    const ordered = await t.request('POST', '/api/v1/services/order', { token, body });
    expect(ordered.status, ordered.text).toBe(201);
    return ordered.body.invoice_id as number;
  };

  it('answers the invoice as a PDF whose text holds its number, seller, buyer, lines and totals', async () => {
    const alice = await t.signUp();
    const id = await order(alice.token);
    const invoice = (await t.request('GET', `${B}/invoices/${id}`, { token: alice.token })).body;
    const res = await fetchPdf(alice.token, id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${invoice.number}.pdf"`);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await textOf(pdf);
    expect(text).toContain(`Invoice ${invoice.number}`);
    expect(text).toContain('Example Hosting SRL');
    expect(text).toContain('1000 Brussels');
    expect(text).toContain(alice.email);
    expect(invoice.lines.length).toBeGreaterThan(0);
    for (const line of invoice.lines as { description: string; amount: number }[]) {
      expect(text).toMatch(new RegExp(`${escape(line.description)}\\s+1\\s+EUR ${line.amount.toFixed(2)}`));
    }
    expect(invoice.total).toBe(4);
    expect(text).toMatch(/Subtotal\s+EUR 4\.00\n/);
    expect(text).toMatch(/Tax\s+EUR 0\.00\n/);
    expect(text).toMatch(/Total\s+EUR 4\.00\n/);
    expect(text).toMatch(/Amount paid\s+EUR 0\.00\n/);
    expect(text).toMatch(/Amount due\s+EUR 4\.00\n/);

    // Once paid, nothing is due.
    await t.request('POST', `${B}/credit/top-up`, { token: alice.token, body: { amount: 4 } });
    const paid = await t.request('POST', `${B}/invoices/${id}/pay`, {
      token: alice.token,
      body: { method: 'credit' },
    });
    expect(paid.status, paid.text).toBe(200);
    const after = await textOf(Buffer.from(await (await fetchPdf(alice.token, id)).arrayBuffer()));
    expect(after).toMatch(/Amount paid\s+EUR 4\.00\n/);
    expect(after).toMatch(/Amount due\s+EUR 0\.00\n/);
    expect(after).toContain('Status: paid');
  });

  it('is described in the OpenAPI document as a binary application/pdf answer', async () => {
    const doc = (await t.request('GET', '/api/v1/openapi.json')).body as {
      paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const ok = doc.paths['/api/v1/billing/invoices/{id}/pdf']?.get?.responses['200'];
    expect(ok?.content).toEqual({ 'application/pdf': { schema: { type: 'string', format: 'binary' } } });
  });

  it("reads as the JSON read does: the organization's members, not another tenant (404)", async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const stranger = await t.signUp();
    const slug = `pdf-${Date.now().toString(36)}`;
    await createOrg(t, owner.token, slug);
    await addMember(t, owner.token, slug, member.email, 'member');
    const id = await order(owner.token, { ...DNS_PRO, org_slug: slug });
    expect((await fetchPdf(member.token, id)).status).toBe(200);
    const denied = await fetchPdf(stranger.token, id);
    expect(denied.status).toBe(404);
    expect(await denied.json()).toEqual({ detail: 'Invoice not found' });
    expect((await fetch(`${t.url}${B}/invoices/${id}/pdf`)).status).toBe(401);
    expect((await fetchPdf(owner.token, 0)).status).toBe(422);
  });
});

describe('renderInvoicePdf', () => {
  const document: InvoiceDocument = {
    title: 'Invoice',
    number: 'INV-000042',
    status: 'unpaid',
    currency: 'EUR',
    issuedAt: new Date('2026-03-01T10:00:00Z'),
    dueAt: new Date('2026-03-15T10:00:00Z'),
    paidAt: null,
    seller: { name: 'Seller', address: [] },
    buyer: { name: 'buyer@example.com', address: [] },
    lines: [
      { description: 'Mail relay (yearly)', quantity: 1, unitAmountMinor: 123_456, amountMinor: 123_456 },
      { description: 'Extra mailbox', quantity: 3, unitAmountMinor: 5, amountMinor: 15 },
    ],
    subtotalMinor: 123_471,
    taxMinor: 0,
    totalMinor: 123_471,
    amountPaidMinor: 1_000,
    amountDueMinor: 122_471,
  };

  it('gives the same bytes for the same document, dated by the document', async () => {
    const [a, b] = await Promise.all([renderInvoicePdf(document), renderInvoicePdf(document)]);
    expect(a.equals(b)).toBe(true);
    const other = await renderInvoicePdf({ ...document, number: 'INV-000043' });
    expect(other.equals(a)).toBe(false);
    const info = await infoOf(a);
    expect(info).toMatch(/CreationDate:\s+2026-03-01T10:00:00Z\n/);
    expect(info).toMatch(/ModDate:\s+2026-03-01T10:00:00Z\n/);
  });

  it('prints minor units exactly', async () => {
    expect(formatMoney('EUR', 400)).toBe('EUR 4.00');
    expect(formatMoney('USD', 5)).toBe('USD 0.05');
    expect(formatMoney('EUR', 123_456)).toBe('EUR 1,234.56');
    const text = await textOf(await renderInvoicePdf(document));
    expect(text).toMatch(/Extra mailbox\s+3\s+EUR 0\.05\s+EUR 0\.15\n/);
    expect(text).toMatch(/Amount due\s+EUR 1,224\.71\n/);
    expect(text).toContain('Due: 2026-03-15');
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('billing settings', () => {
  const read = (env: Record<string, string>) => loadConfig(env, [billingConfig]).section(billingConfig);

  it('default to a seller name and no address; split the address on ";"', () => {
    expect(read({})).toEqual({
      invoiceDaysBefore: 7,
      suspendAfterDays: 3,
      terminateAfterDays: 14,
      sellerName: 'Hosting Platform',
      sellerAddress: [],
    });
    expect(read({ BILLING_SELLER_ADDRESS: ' 1 Rue Neuve ;; 1000 Brussels ' }).sellerAddress).toEqual([
      '1 Rue Neuve',
      '1000 Brussels',
    ]);
  });

  it('refuse a name above 200 characters and an address of more than 6 lines', () => {
    expect(() => read({ BILLING_SELLER_NAME: 'x'.repeat(201) })).toThrow(ConfigError);
    expect(() => read({ BILLING_SELLER_ADDRESS: 'a;b;c;d;e;f;g' })).toThrow(/BILLING_SELLER_ADDRESS/);
  });
});
