import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ORGS } from '../../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { startStripeServer, type StripeServer } from '../../../testing/stripe-server.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts';
import type { WebhooksModule } from '../../webhooks/index.ts';
import type { CommerceTables } from '../commerce-tables.ts';

type Res = TestResponse<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Rue X',
  city: 'Paris',
  postal_code: '75001',
  country_code: 'FR',
};

describe('Store API checkout: payment sessions and completion', () => {
  let t: TestApp;
  let stripe: StripeServer;
  let receiver: HttpsReceiver;
  let owner: string;
  let shop: Shop;
  const ids: Record<string, number> = {};

  const store = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Res> =>
    t.request(method, `${ORGS}/${shop.slug}/store/${path}`, {
      headers: { 'x-publishable-api-key': shop.publishableKey, ...headers },
      ...(body !== undefined ? { body } : {}),
    });
  const ok = async (method: string, path: string, body?: unknown, status?: number) => {
    const res = await store(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status ?? (path === 'carts' ? 201 : 200));
    return res.body;
  };
  /** A cart ready to pay: `quantity` of `variant`, e-mail, address, standard shipping. */
  const readyCart = async (variant = ids.mug!, quantity = 1): Promise<number> => {
    const { cart } = await ok('POST', 'carts', {
      country_code: 'fr',
      email: 'ann@shop.example',
      items: [{ variant_id: variant, quantity }],
    });
    await ok('PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
    await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    return cart.id as number;
  };
  /** Shoppers' addresses (the app trusts X-Forwarded-For here, as behind a load balancer). */
  const from = (ip?: string): Record<string, string> => (ip === undefined ? {} : { 'x-forwarded-for': ip });
  const pay = (cartId: number, provider: string, paymentMethod?: string, ip?: string) =>
    store(
      'POST',
      `carts/${cartId}/payment-sessions`,
      { provider, ...(paymentMethod !== undefined ? { payment_method: paymentMethod } : {}) },
      from(ip),
    );
  const complete = (cartId: number, key?: string, body: Record<string, unknown> = {}, ip?: string) =>
    store('POST', `carts/${cartId}/complete`, body, {
      ...from(ip),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    });
  const level = async (sku: string) => {
    const db = tablesOf<CommerceTables>(t.node.runtime);
    return db
      .selectFrom('commerce_inventory_levels')
      .selectAll()
      .where('sku', '=', sku)
      .executeTakeFirstOrThrow();
  };

  beforeAll(async () => {
    stripe = await startStripeServer();
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_API_BASE_URL: stripe.url,
        TRUST_PROXY: 'true',
        OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true',
        OUTBOUND_CA_FILE: receiver.caFile,
      },
    });
    // One delivery round when the test asks for it.
    await (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine.stop();
    ({ token: owner } = await t.signUp());
    shop = await setUpShop(t, owner, 'checkout-a');
    const hook = await t.request('POST', `${ORGS}/${shop.slug}/webhooks`, {
      token: owner,
      body: { url: `${receiver.url}/shop`, events: ['commerce.order.placed'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const a = shop.admin;
    ids.eu = (
      await a('POST', 'regions', {
        name: 'Europe',
        currency_code: 'EUR',
        countries: ['FR', 'DE'],
        tax_rate: 20,
        tax_inclusive: true,
        payment_providers: ['manual', 'stripe'],
      })
    ).id;
    ids.parcels = (await a('POST', 'shipping-profiles', { name: 'Parcels' })).id;
    const variant = async (title: string, sku: string, amount: number) =>
      (
        await a('POST', 'products', {
          title,
          status: 'published',
          sales_channel_ids: [shop.salesChannelId],
          shipping_profile_id: ids.parcels,
          variants: [{ title: 'One', sku, prices: [{ currency_code: 'EUR', amount }] }],
        })
      ).variants[0].id as number;
    ids.mug = await variant('Mug', 'MUG', 12.5);
    ids.lamp = await variant('Lamp', 'LAMP', 40);
    const location = await a('POST', 'stock-locations', {
      name: 'Warehouse',
      sales_channel_ids: [shop.salesChannelId],
    });
    await a(
      'POST',
      'inventory/batch',
      {
        levels: [
          { sku: 'MUG', stock_location_id: location.id, stocked_quantity: 1000 },
          { sku: 'LAMP', stock_location_id: location.id, stocked_quantity: 10 },
        ],
      },
      200,
    );
    ids.standard = (
      await a('POST', 'shipping-options', {
        region_id: ids.eu,
        shipping_profile_id: ids.parcels,
        name: 'Standard',
        price_type: 'flat',
        amount: 4.5,
      })
    ).id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
    await receiver?.close();
  });

  it('pays later (manual) and places the order: totals, stock reserved, token that reads it, event', async () => {
    const cartId = await readyCart(ids.mug, 2);
    const session = (await pay(cartId, 'manual')).body.payment_session;
    expect(session).toMatchObject({
      provider: 'manual',
      status: 'authorized',
      amount: 29.5,
      currency_code: 'EUR',
    });
    const before = await level('MUG');
    const mugOnPage = async () =>
      (await ok('GET', 'products?limit=100')).products
        .flatMap((p: { variants: { id: number; inventory_quantity: number }[] }) => p.variants)
        .find((v: { id: number }) => v.id === ids.mug).inventory_quantity as number;
    const shownBefore = await mugOnPage(); // the page is cached from here
    const done = await complete(cartId);
    expect(done.status, done.text).toBe(200);
    const { order, access_token } = done.body;
    expect(order).toMatchObject({
      status: 'pending',
      email: 'ann@shop.example',
      currency_code: 'EUR',
      subtotal: 25,
      shipping_total: 4.5,
      total: 29.5,
      payment_status: 'captured',
      fulfillment_status: 'not_fulfilled',
    });
    expect(order.display_id).toBeGreaterThan(0);
    expect(order.items).toEqual([
      expect.objectContaining({ variant_id: ids.mug, quantity: 2, unit_price: 12.5 }),
    ]);
    expect((await level('MUG')).reserved_quantity).toBe(before.reserved_quantity + 2);
    // The order's reservation is on the store's product page at once (the cached page forgotten).
    expect(await mugOnPage()).toBe(shownBefore - 2);
    const read = await store('GET', `orders/${order.id}?token=${encodeURIComponent(access_token)}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.id).toBe(order.id);
    // The cart is closed; completing it again answers the same order.
    expect(
      (await store('POST', `carts/${cartId}/line-items`, { variant_id: ids.mug, quantity: 1 })).status,
    ).toBe(409);
    expect((await complete(cartId)).body.order.id).toBe(order.id);
    const events = await shop.admin('GET', 'events');
    expect(JSON.stringify(events)).toContain('commerce.order.placed');
    // And on the organization's webhook, from the outbox written with the order.
    await (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine.runOnce();
    const delivered = receiver.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    const placedEvent = delivered.find((e) => JSON.stringify(e).includes('commerce.order.placed'));
    expect(placedEvent, JSON.stringify(delivered)).toBeDefined();
    expect(JSON.stringify(placedEvent)).toContain(`"id":${order.id}`);
  });

  it('refuses what is not ready: no e-mail, no shipping method, no payment (and leaves the cart open)', async () => {
    const { cart } = await ok('POST', 'carts', {
      country_code: 'fr',
      items: [{ variant_id: ids.mug, quantity: 1 }],
    });
    const noEmail = await complete(cart.id);
    expect({ status: noEmail.status, loc: noEmail.body.detail?.[0]?.loc }).toEqual({
      status: 422,
      loc: ['cart', 'email'],
    });
    await ok('PATCH', `carts/${cart.id}`, { email: 'bo@shop.example', shipping_address: ADDRESS });
    const noShipping = await complete(cart.id);
    expect(noShipping.body.detail?.[0]?.loc).toEqual(['cart', 'shipping_methods']);
    await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    const unpaid = await complete(cart.id);
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.detail.error).toBe('payment_not_authorized');
    const wrong = await pay(cart.id, 'paypal');
    expect({ status: wrong.status, loc: wrong.body.detail?.[0]?.loc }).toEqual({
      status: 422,
      loc: ['body', 'provider'],
    });
  });

  it('answers a declined card 402 with the reason, then takes another card (Stripe)', async () => {
    const cartId = await readyCart();
    const declined = (await pay(cartId, 'stripe', 'pm_card_chargeDeclined')).body.payment_session;
    expect(declined.status).toBe('declined');
    expect(declined.decline_reason).toBeTruthy();
    const refused = await complete(cartId);
    expect(refused.status, refused.text).toBe(402);
    expect(refused.body.detail).toMatchObject({
      error: 'payment_declined',
      message: declined.decline_reason,
    });
    const good = (await pay(cartId, 'stripe', 'pm_card_visa')).body.payment_session;
    expect(good).toMatchObject({ status: 'authorized', id: declined.id });
    const done = await complete(cartId);
    expect(done.status, done.text).toBe(200);
    const intent = stripe.intentStatuses().find((i) => i.amount === 1700 && i.status === 'succeeded');
    expect(intent?.amountReceived).toBe(1700);
  });

  it('answers 3-D Secure 409 payment_requires_action with the client secret, then places the order', async () => {
    const cartId = await readyCart();
    const session = (await pay(cartId, 'stripe', 'pm_card_authenticationRequired')).body.payment_session;
    expect(session.status).toBe('requires_action');
    expect(session.client_secret).toMatch(/^pi_.+_secret_/);
    const waiting = await complete(cartId);
    expect(waiting.status).toBe(409);
    expect(waiting.body.detail).toMatchObject({
      error: 'payment_requires_action',
      client_secret: session.client_secret,
    });
    stripe.completeAuthentication(session.client_secret.split('_secret_')[0]);
    const done = await complete(cartId);
    expect(done.status, done.text).toBe(200);
    expect(done.body.order.payment_status).toBe('captured');
  });

  it('is safe to retry: the same key answers the same order, another body 409, one completion at a time', async () => {
    const cartId = await readyCart();
    await pay(cartId, 'manual');
    const first = await complete(cartId, 'key-1');
    expect(first.status, first.text).toBe(200);
    // The client lost the answer and retries: the same order, no second order.
    const again = await complete(cartId, 'key-1');
    expect(again.body.order.id).toBe(first.body.order.id);
    expect(again.body.access_token).toBeTruthy();
    expect((await complete(cartId, 'key-1', { accept_terms: true })).status).toBe(409);
    const other = await readyCart();
    expect((await complete(other, 'key-1')).status).toBe(409);
    // A completion running for a cart (its lock held) refuses a second one.
    await pay(other, 'manual');
    const db = tablesOf<CommerceTables>(t.node.runtime);
    await db
      .insertInto('commerce_cart_locks')
      .values({ cart_id: other, org_id: shop.orgId, started_at: new Date(t.node.runtime.clock.now()) })
      .execute();
    const busy = await complete(other, 'key-2');
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toBe('Cart is already being completed');
    await db.deleteFrom('commerce_cart_locks').where('cart_id', '=', other).execute();
    // Concurrent retries of one key: one order, every answer the same order or a 409.
    const answers = await Promise.all(Array.from({ length: 5 }, () => complete(other, 'key-2')));
    const orders = new Set(answers.filter((r) => r.status === 200).map((r) => r.body.order.id));
    expect(orders.size).toBe(1);
    for (const r of answers) expect([200, 409]).toContain(r.status);
    const placed = await db.selectFrom('commerce_orders').select('id').where('cart_id', '=', other).execute();
    expect(placed).toHaveLength(1);
  });

  it('limits payment attempts: 20 a cart in 10 minutes, then 429 in the seed’s shape', async () => {
    const cartId = await readyCart();
    for (let i = 0; i < 20; i++) expect((await pay(cartId, 'manual')).status).toBe(200);
    const refused = await pay(cartId, 'manual');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('600');
    expect(refused.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many payment attempts for this cart. Try again in a few minutes.',
        retry_after_seconds: 600,
      },
    });
    expect((await complete(cartId)).status).toBe(429);
    // The address limit: 60 attempts a shop in 10 minutes from one address, over carts (15 each here).
    const others = await Promise.all([readyCart(), readyCart(), readyCart(), readyCart()]);
    for (let i = 0; i < 60; i++)
      expect((await pay(others[i % 4]!, 'manual', undefined, '203.0.113.9')).status).toBe(200);
    const byAddress = await pay(others[0]!, 'manual', undefined, '203.0.113.9');
    expect(byAddress.status).toBe(429);
    expect(byAddress.body.detail.message).toBe(
      'Too many payment attempts for this cart. Try again in a few minutes.',
    );
    // Another address is not counted with it.
    const answered = (await pay(others[1]!, 'manual', undefined, '203.0.113.10')).status;
    expect(answered).toBe(200);
  });

  it('never oversells: 100 concurrent completions for the last 10 units place 10 orders', async () => {
    // 100 shoppers, each from an address of their own (the payment limits count per address).
    const shopper = (i: number): string => `198.51.100.${i + 1}`;
    const carts: number[] = [];
    for (let i = 0; i < 100; i++) {
      const cartId = await readyCart(ids.lamp, 1);
      const session = (await pay(cartId, 'stripe', 'pm_card_visa', shopper(i))).body.payment_session;
      expect(session.status).toBe('authorized');
      carts.push(cartId);
    }
    const answers = await Promise.all(carts.map((c, i) => complete(c, undefined, {}, shopper(i))));
    const placed = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 409);
    expect(placed).toHaveLength(10);
    expect(refused).toHaveLength(90);
    for (const r of refused)
      expect(r.body.detail).toMatchObject({ error: 'insufficient_inventory', variant_id: ids.lamp });
    const lamp = await level('LAMP');
    expect(lamp.stocked_quantity - lamp.reserved_quantity).toBe(0);
    const lampIntents = stripe.intentStatuses().filter((i) => i.amount === 4450);
    expect(lampIntents.filter((i) => i.status === 'succeeded')).toHaveLength(10);
    expect(lampIntents.filter((i) => i.amountReceived > 0)).toHaveLength(10);
    expect(lampIntents.filter((i) => i.status === 'canceled')).toHaveLength(90);
  }, 180_000);
});
