/**
 * A Store API order counted as a conversion over real HTTP: the shopper's page links its cart
 * (`link: "cart:<id>"`, what `platformAnalytics.linkCart` sends), the cart completes, and the
 * visit the cart was linked to counts one conversion, however many pages sent the link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.ts';
import { ORGS } from '../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../testing/shop-fixture.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { WebhooksModule } from '../webhooks/index.ts';

const T0 = Date.UTC(2026, 10, 29, 10);
const UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Rue X',
  city: 'Paris',
  postal_code: '75001',
  country_code: 'FR',
};

describe('a Store API order as a conversion', () => {
  const clock = new ManualClock(T0);
  let t: TestApp;
  let shop: Shop;
  let token: string;
  let key: string;
  let engine: WebhooksModule['engine'];
  const ids: Record<string, number> = {};

  const hit = (body: unknown, ip: string) =>
    t.request('POST', `/api/v1/t/${key}`, { body, headers: { 'user-agent': UA, 'x-forwarded-for': ip } });
  const read = async (path: string) => {
    const res = await t.request('GET', `${ORGS}/${shop.slug}/tracking/${path}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const ok = async (method: string, path: string, body: unknown, status = 200) => {
    const res = await shop.store(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { ROLE: 'api', TRUST_PROXY: 'true' } });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop(); // the test runs each delivery round itself
    const owner = await t.signUp();
    token = owner.token;
    shop = await setUpShop(t, owner.token, 'cart-shop');
    const a = shop.admin;
    const region = await a('POST', 'regions', {
      name: 'Europe',
      currency_code: 'EUR',
      countries: ['FR'],
      tax_rate: 20,
      tax_inclusive: true,
      payment_providers: ['manual'],
    });
    const parcels = await a('POST', 'shipping-profiles', { name: 'Parcels' });
    ids.mug = (
      await a('POST', 'products', {
        title: 'Mug',
        status: 'published',
        sales_channel_ids: [shop.salesChannelId],
        shipping_profile_id: parcels.id,
        variants: [{ title: 'One', sku: 'MUG', prices: [{ currency_code: 'EUR', amount: 12.5 }] }],
      })
    ).variants[0].id;
    const warehouse = await a('POST', 'stock-locations', {
      name: 'Warehouse',
      sales_channel_ids: [shop.salesChannelId],
    });
    await a(
      'POST',
      'inventory/batch',
      { levels: [{ sku: 'MUG', stock_location_id: warehouse.id, stocked_quantity: 10 }] },
      200,
    );
    ids.standard = (
      await a('POST', 'shipping-options', {
        region_id: region.id,
        shipping_profile_id: parcels.id,
        name: 'Standard',
        price_type: 'flat',
        amount: 4.5,
      })
    ).id;
    const script = await t.request('GET', `${ORGS}/${shop.slug}/tracking/script`);
    key = /var key = "(site_[0-9a-f]{24})"/.exec(script.text)![1]!;
  });
  afterAll(async () => t?.close());

  it('counts the completed cart on the visit that linked it, once', async () => {
    const { cart } = await ok(
      'POST',
      'carts',
      { country_code: 'fr', email: 'ann@shop.example', items: [{ variant_id: ids.mug, quantity: 1 }] },
      201,
    );
    // The buyer arrives from a campaign and links the cart (twice: each page of the checkout does).
    const url = 'https://shop.example/checkout?utm_source=mail&utm_campaign=winter';
    expect((await hit({ name: 'pageview', url }, '198.51.100.7')).status).toBe(202);
    for (const page of ['/checkout', '/checkout/pay'])
      expect(
        (
          await hit(
            { name: 'link', url: `https://shop.example${page}`, link: `cart:${cart.id}` },
            '198.51.100.7',
          )
        ).status,
      ).toBe(202);
    // Another visitor browses and buys nothing.
    expect((await hit({ name: 'pageview', url: 'https://shop.example/' }, '203.0.113.9')).status).toBe(202);
    // The links are written with the next flush (every read flushes); then the cart completes.
    expect((await read('stats?start_date=2026-11-29&end_date=2026-11-29')).totals.visitors).toBe(2);
    await ok('PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
    await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    await ok('POST', `carts/${cart.id}/payment-sessions`, { provider: 'manual' });
    await ok('POST', `carts/${cart.id}/complete`, {});
    await engine.runOnce();
    const conv = await read('conversions?start_date=2026-11-29&end_date=2026-11-29');
    expect(conv).toMatchObject({ visits: 2, conversions: 1, orders: 1, conversion_rate: 50 });
    expect(conv.sources).toContainEqual(
      expect.objectContaining({ utm_source: 'mail', utm_campaign: 'winter', conversions: 1, orders: 1 }),
    );
  });
});
