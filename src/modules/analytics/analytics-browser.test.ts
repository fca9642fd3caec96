/**
 * The tracking script in a real browser (headless Chromium): a storefront served locally on
 * another origin includes the script, a shopper browses three pages, sends a named event and
 * links their customer; a later portal order counts as a conversion. A Do Not Track browser and a
 * crawler's user agent are not counted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../testing/chromium.ts';
import { eventually } from '../../testing/eventually.ts';
import { ORGS, createOrg, storefrontCustomer } from '../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { WebhooksModule } from '../webhooks/index.ts';

const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

describe('storefront analytics in a browser', () => {
  let t: TestApp;
  let shop: Server;
  let shopUrl: string;
  let browser: Browser;
  let owner: { token: string; email: string };
  let customer: { id: number; token: string };

  const page = (title: string, extra = '') => `<!doctype html><html><head><title>${title}</title>
<script src="${t.url}${ORGS}/bshop/tracking/script"></script></head>
<body><h1>${title}</h1><a id="next" href="#">next</a>${extra}</body></html>`;

  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
    owner = await t.signUp();
    await createOrg(t, owner.token, 'bshop');
    customer = await storefrontCustomer(t, 'bshop', 'shopper@example.com');
    shop = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const extra =
        path === '/products'
          ? `<script>window.platformAnalytics.track('add_to_cart', { sku: 'vps-1' });</script>`
          : path === '/checkout'
            ? `<script>window.platformAnalytics.linkCustomer(${customer.id});</script>`
            : '';
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(path, extra));
    });
    await new Promise<void>((r) => shop.listen(0, '127.0.0.1', r));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => shop?.close(r));
    await t?.close();
  });

  const read = async (path: string) => {
    const res = await t.request('GET', `${ORGS}/bshop/tracking/${path}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('counts three page views, an event and a later order; not Do Not Track, not a bot', async () => {
    const dnt = await browser.newContext({ userAgent: DESKTOP_UA + ' DNT', extraHTTPHeaders: { DNT: '1' } });
    const bot = await browser.newContext({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
    for (const ctx of [dnt, bot]) {
      const p = await ctx.newPage();
      await p.goto(`${shopUrl}/`);
      await p.goto(`${shopUrl}/ignored`);
      await p.waitForTimeout(300);
    }
    const shopper = await browser.newContext({ userAgent: DESKTOP_UA });
    const p = await shopper.newPage();
    await p.goto(`${shopUrl}/?utm_source=newsletter&utm_medium=email`);
    await p.goto(`${shopUrl}/products`);
    await p.goto(`${shopUrl}/checkout`);
    const today = new Date().toISOString().slice(0, 10);
    const stats = await eventually(async () => {
      const s = await read(`stats?start_date=${today}&end_date=${today}`);
      return s.totals.pageviews === 3 && s.totals.events === 1 && s;
    }, 10_000);
    expect(stats.totals).toMatchObject({ visitors: 1, pageviews: 3, visits: 1, bounce_rate: 0, events: 1 });
    const pages = await read(`pages?start_date=${today}&end_date=${today}`);
    expect(pages.results.map((r: { path: string }) => r.path).sort()).toEqual([
      '/',
      '/checkout',
      '/products',
    ]);
    expect(await read('live')).toMatchObject({ visitors: 1, pageviews: 3 });
    expect((await read('today')).totals).toMatchObject({ visitors: 1, pageviews: 3, events: 1 });
    // The link is written with the next flush; then the shopper orders.
    await new Promise((r) => setTimeout(r, 500));
    await read('live');
    const order = await t.request('POST', `${ORGS}/bshop/portal/services/order`, {
      token: customer.token,
      body: { product_id: 1, pricing_id: 1 },
    });
    expect(order.status, order.text).toBe(201);
    const engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.runOnce();
    const conv = await eventually(async () => {
      const c = await read(`conversions?start_date=${today}&end_date=${today}`);
      return c.conversions === 1 && c;
    }, 10_000);
    expect(conv).toMatchObject({ visits: 1, conversions: 1, orders: 1, conversion_rate: 100 });
    expect(conv.sources[0]).toMatchObject({ source: 'newsletter', utm_medium: 'email', conversions: 1 });
  });
});
