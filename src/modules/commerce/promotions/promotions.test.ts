import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ORGS } from '../../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts';
import type { CommerceTables } from '../commerce-tables.ts';

type Res = TestResponse<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Rue X',
  city: 'Paris',
  country_code: 'FR',
};
const DAY = 86_400_000;

describe('Promotions: administration, codes on carts, discounts, usage at completion', () => {
  let t: TestApp;
  let owner: string;
  let shop: Shop;
  const ids: Record<string, number> = {};
  let ip = 0;

  /** The Commerce API as the owner (who holds every scope, promotions included). */
  const admin = (method: string, path: string, body?: unknown): Promise<Res> =>
    t.request(method, `${ORGS}/${shop.slug}/commerce/${path}`, {
      token: owner,
      ...(body !== undefined ? { body } : {}),
    });
  const promotion = async (body: Record<string, unknown>): Promise<number> => {
    const res = await admin('POST', 'promotions', { kind: 'percentage', value: 10, ...body });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const store = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    t.request(method, `${ORGS}/${shop.slug}/store/${path}`, {
      headers: { 'x-publishable-api-key': shop.publishableKey, ...headers },
      ...(body !== undefined ? { body } : {}),
    });
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await store(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(path === 'carts' ? 201 : 200);
    return res.body;
  };
  const cartOf = async (items: { variant_id: number; quantity: number }[], email = 'ann@shop.example') =>
    (await ok('POST', 'carts', { country_code: 'fr', email, items })).cart.id as number;
  const apply = (cartId: number, code: string) => store('POST', `carts/${cartId}/promotions`, { code });
  const applied = async (cartId: number, code: string) => {
    const res = await apply(cartId, code);
    expect(res.status, res.text).toBe(200);
    return res.body.cart;
  };
  const refusal = async (cartId: number, code: string): Promise<{ type: string; msg: string }> => {
    const res = await apply(cartId, code);
    expect(res.status, res.text).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'code']);
    return res.body.detail[0];
  };
  /** A cart ready to pay and complete: address, shipping, a manual payment session. */
  const readyToPay = async (cartId: number) => {
    await ok('PATCH', `carts/${cartId}`, { shipping_address: ADDRESS });
    await ok('POST', `carts/${cartId}/shipping-methods`, { option_id: ids.standard });
  };
  const from = () => ({ 'x-forwarded-for': `10.9.${Math.floor(++ip / 200)}.${ip % 200}` });
  const pay = async (cartId: number) => {
    const res = await store('POST', `carts/${cartId}/payment-sessions`, { provider: 'manual' }, from());
    expect(res.status, res.text).toBe(200);
    return res.body.payment_session;
  };
  const complete = (cartId: number) => store('POST', `carts/${cartId}/complete`, {}, from());
  const db = () => tablesOf<CommerceTables>(t.node.runtime);

  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    ({ token: owner } = await t.signUp());
    shop = await setUpShop(t, owner, 'promo-a');
    const a = shop.admin;
    ids.eu = (
      await a('POST', 'regions', {
        name: 'Europe',
        currency_code: 'EUR',
        countries: ['FR'],
        tax_rate: 20,
        tax_inclusive: true,
        payment_providers: ['manual'],
      })
    ).id;
    ids.us = (
      await a('POST', 'regions', {
        name: 'US',
        currency_code: 'USD',
        countries: ['US'],
        tax_rate: 10,
        tax_inclusive: false,
        payment_providers: ['manual'],
      })
    ).id;
    ids.parcels = (await a('POST', 'shipping-profiles', { name: 'Parcels' })).id;
    ids.kitchen = (await a('POST', 'collections', { title: 'Kitchen' })).id;
    const product = async (title: string, sku: string, eur: number, usd: number, collection?: number) => {
      const p = await a('POST', 'products', {
        title,
        status: 'published',
        sales_channel_ids: [shop.salesChannelId],
        shipping_profile_id: ids.parcels,
        ...(collection !== undefined ? { collection_id: collection } : {}),
        variants: [
          {
            title: 'One',
            sku,
            prices: [
              { currency_code: 'EUR', amount: eur },
              { currency_code: 'USD', amount: usd },
            ],
          },
        ],
      });
      return { product: p.id as number, variant: p.variants[0].id as number };
    };
    const mug = await product('Mug', 'MUG', 12.5, 14, ids.kitchen);
    const lamp = await product('Lamp', 'LAMP', 40, 45);
    const pen = await product('Pen', 'PEN', 3, 3);
    Object.assign(ids, {
      mug: mug.variant,
      mugProduct: mug.product,
      lamp: lamp.variant,
      lampProduct: lamp.product,
      pen: pen.variant,
    });
    const location = await a('POST', 'stock-locations', {
      name: 'Warehouse',
      sales_channel_ids: [shop.salesChannelId],
    });
    await a(
      'POST',
      'inventory/batch',
      {
        levels: ['MUG', 'LAMP', 'PEN'].map((sku) => ({
          sku,
          stock_location_id: location.id,
          stocked_quantity: 1000,
        })),
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
  });

  it('creates, reads, lists, changes and deletes promotions, announcing each change', async () => {
    const made = await admin('POST', 'promotions', {
      code: 'Spring15',
      kind: 'fixed',
      amounts: [{ currency_code: 'eur', amount: 5 }],
      applies_to: 'items',
      collection_ids: [ids.kitchen],
      usage_limit: 100,
      min_subtotals: [{ currency_code: 'EUR', amount: 20 }],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      code: 'Spring15',
      kind: 'fixed',
      value: '0.00',
      amounts: [{ currency_code: 'EUR', amount: 5 }],
      applies_to: 'items',
      collection_ids: [ids.kitchen],
      product_ids: [],
      usage_limit: 100,
      used: 0,
      min_subtotals: [{ currency_code: 'EUR', amount: 20 }],
      is_automatic: false,
      status: 'active',
    });
    const id = made.body.id as number;
    // Codes are unique in any case.
    const twice = await admin('POST', 'promotions', { code: 'SPRING15', kind: 'percentage', value: 5 });
    expect(twice.status).toBe(409);
    // What a promotion needs, each a 422 naming the field.
    const bad = async (body: Record<string, unknown>, loc: (string | number)[]) => {
      const res = await admin('POST', 'promotions', { code: 'BAD', ...body });
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
    };
    await bad({ kind: 'percentage' }, ['body', 'value']);
    await bad({ kind: 'percentage', value: 10.005 }, ['body', 'value']);
    await bad({ kind: 'fixed' }, ['body', 'amounts']);
    await bad({ kind: 'fixed', amounts: [{ currency_code: 'XXX', amount: 1 }] }, [
      'body',
      'amounts',
      0,
      'currency_code',
    ]);
    await bad({ kind: 'percentage', value: 5, applies_to: 'items' }, ['body', 'product_ids']);
    await bad({ kind: 'percentage', value: 5, applies_to: 'items', product_ids: [999999] }, [
      'body',
      'product_ids',
      0,
    ]);
    await bad(
      { kind: 'percentage', value: 5, starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' },
      ['body', 'ends_at'],
    );
    expect((await admin('GET', `promotions/${id}`)).body.code).toBe('Spring15');
    const changed = await admin('PATCH', `promotions/${id}`, { status: 'inactive', usage_limit: null });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ status: 'inactive', usage_limit: null, applies_to: 'items' });
    const list = await admin('GET', 'promotions?limit=200');
    expect(list.status, list.text).toBe(200);
    expect(list.body.promotions.find((p: { id: number }) => p.id === id)).toMatchObject({
      code: 'Spring15',
      status: 'inactive',
      amounts: [{ currency_code: 'EUR', amount: 5 }],
    });
    expect((await admin('DELETE', `promotions/${id}`)).body).toEqual({ id, deleted: true });
    expect((await admin('GET', `promotions/${id}`)).status).toBe(404);
    const names = (await admin('GET', 'events?limit=200')).body.events.map((e: { name: string }) => e.name);
    for (const verb of ['created', 'updated', 'deleted'])
      expect(names).toContain(`commerce.promotion.${verb}`);
    // The scope: the set-up key has no promotions scope, for reads as for writes.
    const keyed = await t.request('GET', `${ORGS}/${shop.slug}/commerce/promotions/${id}`, {
      headers: { 'x-api-key': shop.orgKey },
    });
    expect(keyed.status).toBe(403);
  });

  it('refuses codes that cannot apply, each with its reason, naming `code`', async () => {
    const now = Date.now();
    await promotion({ code: 'LATER', starts_at: new Date(now + DAY).toISOString() });
    await promotion({ code: 'GONE', ends_at: new Date(now - DAY).toISOString() });
    await promotion({ code: 'NONELEFT', usage_limit: 0 });
    await promotion({ code: 'BIGSPEND', min_subtotals: [{ currency_code: 'EUR', amount: 100 }] });
    await promotion({ code: 'DOLLARS', kind: 'fixed', amounts: [{ currency_code: 'USD', amount: 5 }] });
    await promotion({ code: 'PAUSED', status: 'inactive' });
    const cart = await cartOf([{ variant_id: ids.mug!, quantity: 2 }]);
    const seen = new Map<string, { type: string; msg: string }>();
    for (const code of ['NOPE', 'LATER', 'GONE', 'NONELEFT', 'BIGSPEND', 'DOLLARS', 'PAUSED'])
      seen.set(code, await refusal(cart, code));
    expect(seen.get('NOPE')!.type).toBe('promotion_unknown');
    expect(seen.get('PAUSED')!.type).toBe('promotion_unknown');
    expect(seen.get('LATER')!.type).toBe('promotion_not_started');
    expect(seen.get('GONE')!.type).toBe('promotion_expired');
    expect(seen.get('NONELEFT')!.type).toBe('promotion_used_up');
    expect(seen.get('BIGSPEND')!).toMatchObject({ type: 'promotion_min_subtotal' });
    expect(seen.get('BIGSPEND')!.msg).toContain('100 EUR');
    expect(seen.get('DOLLARS')!.type).toBe('promotion_currency');
    const messages = new Set([...seen.entries()].filter(([c]) => c !== 'PAUSED').map(([, r]) => r.msg));
    expect(messages.size).toBe(6);
    // Nothing applied: the cart is as it was.
    expect((await ok('GET', `carts/${cart}`)).cart).toMatchObject({ discount_total: 0, promotions: [] });
  });

  it('takes a percentage off the order before tax, in any case of the code; removed by body or query', async () => {
    await promotion({ code: 'TEN', value: 10 });
    const cartId = await cartOf([{ variant_id: ids.mug!, quantity: 2 }]);
    await readyToPay(cartId);
    const cart = await applied(cartId, 'ten');
    // 25.00 − 10 % = 22.50; tax within (20 % included) 3.75 + shipping's 0.75.
    expect(cart).toMatchObject({
      subtotal: 25,
      discount_total: 2.5,
      shipping_total: 4.5,
      tax_total: 4.5,
      total: 27,
      promotions: [{ code: 'TEN', is_automatic: false, applies: true, discount_total: 2.5 }],
    });
    expect(cart.items[0].discount_total).toBe(2.5);
    // The payment session is for the discounted total.
    expect((await pay(cartId)).amount).toBe(27);
    const byQuery = await store('DELETE', `carts/${cartId}/promotions?code=Ten`);
    expect(byQuery.status, byQuery.text).toBe(200);
    expect(byQuery.body.cart).toMatchObject({ discount_total: 0, total: 29.5, promotions: [] });
    await applied(cartId, 'TEN');
    const byBody = await store('DELETE', `carts/${cartId}/promotions`, { code: 'TEN' });
    expect(byBody.body.cart.discount_total).toBe(0);
    const none = await store('DELETE', `carts/${cartId}/promotions`);
    expect(none.status).toBe(422);
    expect(none.body.detail[0].loc).toEqual(['body', 'code']);
  });

  it('re-computes on every change: lines, the minimum subtotal, the region and its currency', async () => {
    await promotion({
      code: 'FIVEOFF',
      kind: 'fixed',
      amounts: [{ currency_code: 'EUR', amount: 5 }],
      min_subtotals: [{ currency_code: 'EUR', amount: 30 }],
    });
    const cartId = await cartOf([
      { variant_id: ids.mug!, quantity: 2 },
      { variant_id: ids.pen!, quantity: 3 },
    ]);
    let cart = await applied(cartId, 'FIVEOFF');
    // 5.00 shared by the lines' weight: 25.00 and 9.00 of 34.00 → 3.68 and 1.32.
    expect(cart.discount_total).toBe(5);
    expect(cart.items.map((i: { discount_total: number }) => i.discount_total)).toEqual([3.68, 1.32]);
    // Below the minimum once a line shrinks: the code stays, giving nothing.
    const penLine = cart.items[1].id as number;
    cart = (await ok('PATCH', `carts/${cartId}/line-items/${penLine}`, { quantity: 1 })).cart;
    expect(cart).toMatchObject({ subtotal: 28, discount_total: 0, total: 28 });
    expect(cart.promotions).toEqual([
      { id: expect.any(Number), code: 'FIVEOFF', is_automatic: false, applies: false, discount_total: 0 },
    ]);
    // A new line brings it back.
    cart = (await ok('POST', `carts/${cartId}/line-items`, { variant_id: ids.lamp, quantity: 1 })).cart;
    expect(cart).toMatchObject({ subtotal: 68, discount_total: 5, total: 63 });
    // Another region, another currency: no amount in USD, no discount.
    cart = (await ok('PATCH', `carts/${cartId}`, { country_code: 'US' })).cart;
    expect(cart).toMatchObject({ currency_code: 'USD', discount_total: 0 });
    expect(cart.promotions[0].applies).toBe(false);
  });

  it('discounts items of given products or collections, and applies automatic promotions by themselves', async () => {
    await promotion({ code: 'KITCHEN20', value: 20, applies_to: 'items', collection_ids: [ids.kitchen] });
    await promotion({
      code: 'LAMP3',
      kind: 'fixed',
      amounts: [{ currency_code: 'EUR', amount: 3 }],
      applies_to: 'items',
      product_ids: [ids.lampProduct],
    });
    const cartId = await cartOf([
      { variant_id: ids.mug!, quantity: 1 },
      { variant_id: ids.lamp!, quantity: 1 },
      { variant_id: ids.pen!, quantity: 1 },
    ]);
    await applied(cartId, 'KITCHEN20');
    const cart = await applied(cartId, 'LAMP3');
    expect(cart.items.map((i: { discount_total: number }) => i.discount_total)).toEqual([2.5, 3, 0]);
    expect(cart.discount_total).toBe(5.5);
    // An automatic promotion, for carts of 50.00 or more: no code needed.
    const auto = await promotion({
      code: 'AUTO5',
      value: 5,
      is_automatic: true,
      min_subtotals: [{ currency_code: 'EUR', amount: 50 }],
    });
    const small = await cartOf([{ variant_id: ids.pen!, quantity: 1 }]);
    expect((await ok('GET', `carts/${small}`)).cart).toMatchObject({ discount_total: 0, promotions: [] });
    const big = (await ok('GET', `carts/${cartId}`)).cart;
    // 55.50 at prices: 5 % of what the codes left (10.00, 37.00, 3.00) = 0.50 + 1.85 + 0.15.
    expect(big.promotions.map((p: { code: string }) => p.code)).toEqual(['KITCHEN20', 'LAMP3', 'AUTO5']);
    expect(big.promotions[2]).toMatchObject({ id: auto, is_automatic: true, discount_total: 2.5 });
    expect(big.discount_total).toBe(8);
    const paused = await admin('PATCH', `promotions/${auto}`, { status: 'inactive' });
    expect(paused.status, paused.text).toBe(200);
    expect((await ok('GET', `carts/${cartId}`)).cart.discount_total).toBe(5.5);
  });

  it('counts a use at completion: the order keeps its discount and the promotion it used; per-customer limit', async () => {
    const id = await promotion({ code: 'ONCEEACH', value: 10, per_customer_limit: 1 });
    const first = await cartOf([{ variant_id: ids.mug!, quantity: 2 }], 'Bea@Shop.example');
    const second = await cartOf([{ variant_id: ids.mug!, quantity: 2 }], 'bea@shop.example');
    for (const c of [first, second]) {
      await readyToPay(c);
      await applied(c, 'ONCEEACH');
      await pay(c);
    }
    const done = await complete(first);
    expect(done.status, done.text).toBe(200);
    expect(done.body.order).toMatchObject({ subtotal: 25, discount_total: 2.5, total: 27 });
    const orderId = done.body.order.id as number;
    const used = await db()
      .selectFrom('commerce_order_promotions')
      .selectAll()
      .where('order_id', '=', orderId)
      .execute();
    expect(used).toMatchObject([{ code: 'ONCEEACH', email: 'bea@shop.example' }]);
    expect(Number(used[0]!.amount_minor)).toBe(250);
    expect((await admin('GET', `promotions/${id}`)).body.used).toBe(1);
    // The same e-mail (any case) again: refused at completion, the cart left open.
    const again = await complete(second);
    expect(again.status, again.text).toBe(409);
    expect(again.body.detail).toMatchObject({
      error: 'promotion_unavailable',
      reason: 'customer_limit',
      promotion_id: id,
      promotion_code: 'ONCEEACH',
    });
    expect((await ok('GET', `carts/${second}`)).cart.completed_at).toBeNull();
    // And refused when applied to a new cart of that e-mail.
    const third = await cartOf([{ variant_id: ids.mug!, quantity: 1 }], 'BEA@shop.example');
    expect((await refusal(third, 'ONCEEACH')).type).toBe('promotion_customer_limit');
    expect((await admin('GET', `promotions/${id}`)).body.used).toBe(1);
  });

  it('spends the last use once: 20 concurrent completions with a code limited to 1 place one discounted order', async () => {
    const id = await promotion({ code: 'LASTONE', value: 50, usage_limit: 1 });
    const carts: number[] = [];
    for (let i = 0; i < 20; i++) {
      const c = await cartOf([{ variant_id: ids.pen!, quantity: 2 }], `buyer${i}@shop.example`);
      await readyToPay(c);
      await applied(c, 'LASTONE');
      expect((await pay(c)).amount).toBe(7.5); // 6.00 − 50 % + 4.50
      carts.push(c);
    }
    const answers = await Promise.all(carts.map((c) => complete(c)));
    const placed = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 409);
    expect(placed, answers.map((r) => `${r.status} ${r.text}`).join('\n')).toHaveLength(1);
    expect(refused).toHaveLength(19);
    expect(placed[0]!.body.order).toMatchObject({
      discount_total: 3,
      total: 7.5,
      payment_status: 'captured',
    });
    for (const r of refused)
      expect(r.body.detail).toMatchObject({
        error: 'promotion_unavailable',
        reason: 'used_up',
        promotion_id: id,
      });
    const open = await Promise.all(carts.map(async (c) => (await ok('GET', `carts/${c}`)).cart.completed_at));
    expect(open.filter((c) => c === null)).toHaveLength(19);
    expect((await admin('GET', `promotions/${id}`)).body.used).toBe(1);
    const uses = await db()
      .selectFrom('commerce_order_promotions')
      .select('order_id')
      .where('promotion_id', '=', id)
      .execute();
    expect(uses.map((u) => Number(u.order_id))).toEqual([placed[0]!.body.order.id]);
    // A refused cart without the code pays its full total and completes.
    const loser = carts[open.findIndex((c) => c === null)]!;
    const freed = await store('DELETE', `carts/${loser}/promotions?code=LASTONE`);
    expect(freed.body.cart.total).toBe(10.5);
    await pay(loser);
    expect((await complete(loser)).status).toBe(200);
  }, 120_000);
});
