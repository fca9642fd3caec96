/**
 * Order documents over real HTTP (embedded database, or PostgreSQL and Redis): the invoice issued
 * with a placed order, a credit note with a cancel's refund, numbers gap-free per seller, kind and
 * year (also under concurrent completions), the seller of record by billing mode, and the PDFs,
 * whose text (pdftotext, poppler-utils) holds the number, seller, buyer, lines and totals.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS } from '../../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts';

type Res = TestResponse<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const run = promisify(execFile);
const YEAR = 2031;
const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Rue X',
  city: 'Paris',
  postal_code: '75001',
  country_code: 'FR',
};

/** The text of a PDF as pdftotext reads it, laid out as printed (fails when pdftotext is missing). */
async function textOf(pdf: Buffer): Promise<string> {
  const child = run('pdftotext', ['-layout', '-', '-']);
  child.child.stdin!.end(pdf);
  return (await child).stdout;
}

/** The first page as a PNG at 60 dpi (pdftoppm), kept in `png` to look at. */
async function pngOf(pdf: Buffer, png: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'order-document-'));
  try {
    await writeFile(join(dir, 'doc.pdf'), pdf);
    await run('pdftoppm', ['-png', '-r', '60', '-singlefile', join(dir, 'doc.pdf'), join(dir, 'page')]);
    const bytes = await readFile(join(dir, 'page.png'));
    await writeFile(png, bytes);
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Placed {
  id: number;
  token: string;
  total: number;
}

describe('Order documents: invoices and credit notes', () => {
  const clock = new ManualClock(Date.UTC(YEAR, 4, 10, 12, 0, 0));
  let t: TestApp;
  let owner: string;
  /** An organization key of `shopA` that reads orders and cancels them. */
  let staff: string;

  const keyWith = async (s: Shop, scopes: string[]): Promise<string> => {
    const made = await t.request('POST', `${ORGS}/${s.slug}/api-keys`, {
      token: owner,
      body: { label: 'documents', permissions: { scopes } },
    });
    expect(made.status, made.text).toBe(201);
    return made.body.raw_key as string;
  };
  const api = (s: Shop, method: string, path: string, key: string): Promise<Res> =>
    t.request(method, `${ORGS}/${s.slug}/commerce/${path}`, { headers: { 'x-api-key': key } });
  const storeOk = async (s: Shop, method: string, path: string, body?: unknown, status = 200) => {
    const res = await s.store(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body;
  };
  /** A shop selling a mug (EUR 12.50, 20 % tax included) with flat shipping (EUR 4.50). */
  const shopWithMug = async (
    slug: string,
    billingMode?: string,
  ): Promise<Shop & { mug: number; standard: number }> => {
    const shop = await setUpShop(t, owner, slug);
    if (billingMode !== undefined) {
      const patched = await t.request('PATCH', `${ORGS}/${slug}`, {
        token: owner,
        body: { billing_mode: billingMode },
      });
      expect(patched.status, patched.text).toBe(200);
    }
    const a = shop.admin;
    const region = (
      await a('POST', 'regions', {
        name: 'Europe',
        currency_code: 'EUR',
        countries: ['FR'],
        tax_rate: 20,
        tax_inclusive: true,
        payment_providers: ['manual'],
      })
    ).id;
    const profile = (await a('POST', 'shipping-profiles', { name: 'Parcels' })).id;
    const mug = (
      await a('POST', 'products', {
        title: 'Stoneware Mug',
        status: 'published',
        sales_channel_ids: [shop.salesChannelId],
        shipping_profile_id: profile,
        variants: [{ title: 'One', sku: 'MUG', prices: [{ currency_code: 'EUR', amount: 12.5 }] }],
      })
    ).variants[0].id as number;
    const location = (
      await a('POST', 'stock-locations', { name: 'Warehouse', sales_channel_ids: [shop.salesChannelId] })
    ).id;
    await a(
      'POST',
      'inventory/batch',
      { levels: [{ sku: 'MUG', stock_location_id: location, stocked_quantity: 1000 }] },
      200,
    );
    const standard = (
      await a('POST', 'shipping-options', {
        region_id: region,
        shipping_profile_id: profile,
        name: 'Standard',
        price_type: 'flat',
        amount: 4.5,
      })
    ).id as number;
    return { ...shop, mug, standard };
  };
  /** An order placed through the Store API: `quantity` mugs, paid with the manual provider. */
  const place = async (shop: Shop & { mug: number; standard: number }, quantity = 2): Promise<Placed> => {
    const { cart } = await storeOk(
      shop,
      'POST',
      'carts',
      { country_code: 'fr', email: 'ann@shop.example', items: [{ variant_id: shop.mug, quantity }] },
      201,
    );
    await storeOk(shop, 'PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
    await storeOk(shop, 'POST', `carts/${cart.id}/shipping-methods`, { option_id: shop.standard });
    await storeOk(shop, 'POST', `carts/${cart.id}/payment-sessions`, { provider: 'manual' });
    const { order, access_token } = await storeOk(shop, 'POST', `carts/${cart.id}/complete`, {});
    return { id: order.id, token: access_token, total: order.total };
  };
  const documentsOf = async (shop: Shop, o: Placed) =>
    (await storeOk(shop, 'GET', `orders/${o.id}/documents?token=${encodeURIComponent(o.token)}`))
      .documents as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** A document's PDF by its `url`, with the publishable key (Store) or an organization key (Commerce). */
  const pdfAt = async (url: string, headers: Record<string, string>): Promise<Response> =>
    fetch(`${t.url}${url}`, { headers });

  let shopA: Shop & { mug: number; standard: number };

  beforeAll(async () => {
    t = await startTestApp({
      clock,
      env: {
        PLATFORM_LEGAL_NAME: 'Example Hosting SRL',
        PLATFORM_ADDRESS: '1 Rue Neuve; 1000 Brussels; BE',
        PLATFORM_VAT_ID: 'BE0123456789',
      },
    });
    ({ token: owner } = await t.signUp());
    shopA = await shopWithMug('docs-platform');
    staff = await keyWith(shopA, ['commerce.orders:read', 'commerce.refunds:write']);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });
  // The clock stands still between tests: move it so the per-address request bucket refills.
  beforeEach(() => clock.advance(5_000));

  it('issues the invoice with the order: numbered in the year of the clock, the platform selling', async () => {
    const first = await place(shopA);
    const [invoice, ...rest] = await documentsOf(shopA, first);
    expect(rest).toEqual([]);
    expect(invoice).toMatchObject({
      type: 'invoice',
      number: `INV-${YEAR}-000001`,
      issued_at: new Date(clock.now()).toISOString(),
      order_id: first.id,
      refers_to: null,
      currency: 'EUR',
      tax_inclusive: true,
      tax_rate: 20,
      seller: {
        type: 'platform',
        name: 'Example Hosting SRL',
        address: ['1 Rue Neuve', '1000 Brussels', 'BE'],
        vat_id: 'BE0123456789',
      },
      buyer: { name: 'Ann Lee', address: ['1 Rue X', '75001 Paris', 'FR'], email: 'ann@shop.example' },
      lines: [
        {
          description: 'Stoneware Mug — One',
          sku: 'MUG',
          quantity: 2,
          unit_price: 12.5,
          tax: 4.17,
          amount: 25,
        },
        { description: 'Shipping', sku: null, quantity: 1, unit_price: 4.5, tax: 0.75, amount: 4.5 },
      ],
      totals: { subtotal: 25, shipping: 4.5, discount: 0, tax: 4.92, total: 29.5 },
    });
    expect(invoice.url).toBe(
      `/api/v1/orgs/${shopA.slug}/store/orders/${first.id}/documents/INV-${YEAR}-000001?token=${encodeURIComponent(first.token)}`,
    );
    const second = await place(shopA, 1);
    expect((await documentsOf(shopA, second)).map((d) => d.number)).toEqual([`INV-${YEAR}-000002`]);

    // The Commerce API's order read lists them too, with the PDF under the Commerce API.
    const read = await api(shopA, 'GET', `orders/${first.id}`, staff);
    expect(read.status, read.text).toBe(200);
    expect(read.body.documents).toEqual([
      {
        ...invoice,
        url: `/api/v1/orgs/${shopA.slug}/commerce/orders/${first.id}/documents/INV-${YEAR}-000001`,
      },
    ]);
    const events = JSON.stringify(await shopA.admin('GET', 'events?limit=100'));
    expect(events).toContain('commerce.document.issued');
    expect(events).toContain(`INV-${YEAR}-000002`);
  });

  it('answers 404 to a wrong token, another order’s token, another shop’s key', async () => {
    const o = await place(shopA, 1);
    const other = await place(shopA, 1);
    for (const token of ['', 'nope', other.token]) {
      const res = await shopA.store('GET', `orders/${o.id}/documents?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(404);
    }
    expect((await shopA.store('GET', `orders/${o.id}/documents`)).status).toBe(404);
    const [invoice] = await documentsOf(shopA, o);
    const pdfWithOtherToken = await pdfAt(
      invoice.url.replace(/token=.*/, `token=${encodeURIComponent(other.token)}`),
      {
        'x-publishable-api-key': shopA.publishableKey,
      },
    );
    expect(pdfWithOtherToken.status).toBe(404);
    const unknown = await pdfAt(invoice.url.replace(/INV-\d{4}-\d{6}/, `CN-${YEAR}-000999`), {
      'x-publishable-api-key': shopA.publishableKey,
    });
    expect(unknown.status).toBe(404);
    const reader = await keyWith(shopA, ['commerce.catalog:read']);
    expect((await api(shopA, 'GET', `orders/${o.id}/documents`, reader)).status).toBe(403);
  });

  it('serves the invoice as a PDF holding the number, seller, buyer, lines and totals', async () => {
    const o = await place(shopA, 3);
    const [invoice] = await documentsOf(shopA, o);
    const res = await pdfAt(invoice.url, { 'x-publishable-api-key': shopA.publishableKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${invoice.number}.pdf"`);
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await textOf(pdf);
    expect(text).toContain(`Invoice ${invoice.number}`);
    expect(text).toContain('Example Hosting SRL');
    expect(text).toContain('1000 Brussels');
    expect(text).toContain('VAT ID: BE0123456789');
    expect(text).toContain('Ann Lee');
    expect(text).toContain('75001 Paris');
    expect(text).toContain('ann@shop.example');
    expect(text).toMatch(/Stoneware Mug — One \(MUG\)\s+3\s+EUR 12\.50\s+EUR 6\.25\s+EUR 37\.50/);
    expect(text).toMatch(/Shipping\s+1\s+EUR 4\.50\s+EUR 0\.75\s+EUR 4\.50/);
    expect(text).toMatch(/Subtotal\s+EUR 37\.50/);
    expect(text).toMatch(/Tax included \(20%\)\s+EUR 7\.00/);
    expect(text).toMatch(/Total\s+EUR 42\.00/);

    // The Commerce API serves the same bytes: one snapshot, rendered deterministically.
    const admin = await pdfAt(
      `/api/v1/orgs/${shopA.slug}/commerce/orders/${o.id}/documents/${invoice.number}`,
      {
        'x-api-key': staff,
      },
    );
    expect(admin.status).toBe(200);
    expect(Buffer.from(await admin.arrayBuffer()).equals(pdf)).toBe(true);

    const png = await pngOf(pdf, join(tmpdir(), 'order-document-invoice.png'));
    expect(png.length).toBeGreaterThan(1000);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('issues a credit note for a cancel’s refund, correcting the invoice', async () => {
    const o = await place(shopA, 2);
    const canceled = await api(shopA, 'POST', `orders/${o.id}/cancel`, staff);
    expect(canceled.status, canceled.text).toBe(200);
    const [invoice, credit] = await documentsOf(shopA, o);
    expect(credit).toMatchObject({
      type: 'credit_note',
      number: `CN-${YEAR}-000001`,
      refers_to: invoice.number,
      seller: invoice.seller,
      buyer: invoice.buyer,
      lines: [
        { description: 'Refund: order canceled', quantity: 1, unit_price: 29.5, tax: null, amount: 29.5 },
      ],
      totals: { subtotal: 29.5, shipping: 0, discount: 0, tax: 4.92, total: 29.5 },
    });
    const res = await pdfAt(credit.url, { 'x-publishable-api-key': shopA.publishableKey });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    const text = await textOf(pdf);
    expect(text).toContain(`Credit note CN-${YEAR}-000001`);
    expect(text).toContain(`Corrects invoice: ${invoice.number}`);
    expect(text).toMatch(/Total refunded\s+EUR 29\.50/);
    await pngOf(pdf, join(tmpdir(), 'order-document-credit-note.png'));
  });

  it('names the seller of record by billing mode, each seller with its own numbers', async () => {
    const own = await shopWithMug('docs-merchant', 'merchant_of_record');
    await own.admin('PATCH', 'store', { name: 'Acme Mugs', support_email: 'help@acme.example' }, 200);
    const o = await place(own, 1);
    const [invoice] = await documentsOf(own, o);
    expect(invoice).toMatchObject({
      number: `INV-${YEAR}-000001`,
      seller: {
        type: 'organization',
        name: 'Acme Mugs',
        address: [],
        email: 'help@acme.example',
        vat_id: null,
      },
    });
    const text = await textOf(
      Buffer.from(
        await (await pdfAt(invoice.url, { 'x-publishable-api-key': own.publishableKey })).arrayBuffer(),
      ),
    );
    expect(text).toContain('Acme Mugs');
    expect(text).toContain('help@acme.example');

    const hybrid = await shopWithMug('docs-hybrid', 'hybrid');
    const byOrg = (await documentsOf(hybrid, await place(hybrid, 1)))[0];
    expect(byOrg.seller.type).toBe('organization');
    expect(byOrg.number).toBe(`INV-${YEAR}-000001`);
    const setting = await hybrid.admin('PATCH', 'store', { seller_of_record: 'platform' }, 200);
    expect(setting.seller_of_record).toBe('platform');
    const byPlatform = (await documentsOf(hybrid, await place(hybrid, 1)))[0];
    expect(byPlatform.seller).toMatchObject({ type: 'platform', name: 'Example Hosting SRL' });
    // The platform's sequence is one across every shop it sells for: shop A's invoices came first.
    const platformSoFar = (await api(shopA, 'GET', 'orders?limit=200', staff)).body.count as number;
    expect(byPlatform.number).toBe(`INV-${YEAR}-${String(platformSoFar + 1).padStart(6, '0')}`);
    const invalid = await t.request('PATCH', `${ORGS}/${hybrid.slug}/commerce/store`, {
      headers: { 'x-api-key': hybrid.orgKey },
      body: { seller_of_record: 'nobody' },
    });
    expect(invalid.status).toBe(422);
  });

  it('numbers concurrent completions consecutively, with no gap and no duplicate', async () => {
    const own = await shopWithMug('docs-concurrent', 'merchant_of_record');
    const carts: number[] = [];
    for (let i = 0; i < 8; i++) {
      const { cart } = await storeOk(
        own,
        'POST',
        'carts',
        {
          country_code: 'fr',
          email: `buyer${i}@shop.example`,
          items: [{ variant_id: own.mug, quantity: 1 }],
        },
        201,
      );
      await storeOk(own, 'PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
      await storeOk(own, 'POST', `carts/${cart.id}/shipping-methods`, { option_id: own.standard });
      await storeOk(own, 'POST', `carts/${cart.id}/payment-sessions`, { provider: 'manual' });
      carts.push(cart.id as number);
    }
    const completed = await Promise.all(carts.map((id) => own.store('POST', `carts/${id}/complete`, {})));
    const numbers: string[] = [];
    for (const res of completed) {
      expect(res.status, res.text).toBe(200);
      const docs = await documentsOf(own, { id: res.body.order.id, token: res.body.access_token, total: 0 });
      numbers.push(...docs.map((d) => d.number as string));
    }
    expect(numbers.sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `INV-${YEAR}-00000${n}`));
  });

  it('answers the documents with an order’s edit too', async () => {
    const o = await place(shopA, 1);
    const patched = await t.request('PATCH', `${ORGS}/${shopA.slug}/commerce/orders/${o.id}`, {
      headers: { 'x-api-key': shopA.orgKey },
      body: { metadata: { gift: true } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.documents.map((d: { type: string }) => d.type)).toEqual(['invoice']);
  });

  it('restarts each sequence with the year of the clock', async () => {
    const own = await shopWithMug('docs-new-year', 'merchant_of_record');
    expect((await documentsOf(own, await place(own, 1))).map((d) => d.number)).toEqual([
      `INV-${YEAR}-000001`,
    ]);
    clock.set(Date.UTC(YEAR + 1, 0, 1, 0, 0, 1));
    const nextYear = await place(own, 1);
    expect((await documentsOf(own, nextYear)).map((d) => d.number)).toEqual([`INV-${YEAR + 1}-000001`]);
  });
});
