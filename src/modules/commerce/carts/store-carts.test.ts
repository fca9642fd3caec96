import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts';
import { commerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import { ShopEventLog } from '../events/shop-event-log.ts';
import { cartTotals, taxOf } from './cart-totals.ts';
import { CartsRepository } from './carts-repository.ts';
import { CartsService } from './carts-service.ts';

type Res = TestResponse<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('cart totals in minor units', () => {
  it('computes tax added to prices or included in them, per line, rounded half up', () => {
    expect(taxOf(4000, { ratePercent: 19, inclusive: true })).toBe(639); // 4000 × 19/119 = 638.66
    expect(taxOf(4000, { ratePercent: 19, inclusive: false })).toBe(760);
    expect(taxOf(1250, { ratePercent: 7.5, inclusive: false })).toBe(94); // 93.75
    expect(taxOf(1200, { ratePercent: 0, inclusive: false })).toBe(0);
    const t = cartTotals(
      [
        { unit_price: 2500, quantity: 2 },
        { unit_price: 600, quantity: 1 },
      ],
      [800],
      { ratePercent: 10, inclusive: false },
    );
    expect(t).toEqual({
      lineSubtotals: [5000, 600],
      lineDiscounts: [0, 0],
      lineTaxes: [500, 60],
      subtotal: 5600,
      shippingTotal: 800,
      taxTotal: 640,
      discountTotal: 0,
      total: 7040,
    });
  });
});

describe('Store API carts (publishable key)', () => {
  let t: TestApp;
  let shop: Shop;
  let other: Shop;
  const ids: Record<string, number> = {};

  const store = (method: string, path: string, body?: unknown, key?: string | null): Promise<Res> =>
    key === undefined ? shop.store(method, path, body) : shop.store(method, path, body, key);
  const ok = async (
    method: string,
    path: string,
    body?: unknown,
    status = method === 'POST' && path === 'carts' ? 201 : 200,
  ) => {
    const res = await store(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body.cart ?? res.body;
  };
  const loc = (res: Res) => ({ status: res.status, loc: res.body?.detail?.[0]?.loc });
  const newCart = async (body: Record<string, unknown> = { country_code: 'fr' }) => ok('POST', 'carts', body);
  const add = (cartId: number, body: Record<string, unknown>) =>
    store('POST', `carts/${cartId}/line-items`, body);

  beforeAll(async () => {
    t = await startTestApp();
    const { token } = await t.signUp();
    shop = await setUpShop(t, token, 'cart-a');
    other = await setUpShop(t, token, 'cart-b');
    const a = shop.admin;
    ids.eu = (
      await a('POST', 'regions', {
        name: 'Europe',
        currency_code: 'EUR',
        countries: ['DE', 'FR'],
        tax_rate: 19,
        tax_inclusive: true,
        payment_providers: ['manual', 'stripe'],
      })
    ).id;
    ids.us = (
      await a('POST', 'regions', { name: 'USA', currency_code: 'USD', countries: ['US'], tax_rate: 10 })
    ).id;
    ids.parcels = (await a('POST', 'shipping-profiles', { name: 'Parcels' })).id;
    ids.bulky = (await a('POST', 'shipping-profiles', { name: 'Bulky' })).id;
    const product = async (body: Record<string, unknown>) =>
      (
        await a('POST', 'products', {
          status: 'published',
          sales_channel_ids: [shop.salesChannelId],
          ...body,
        })
      ).variants.map((v: { id: number }) => v.id) as number[];
    const one = async (body: Record<string, unknown>) => (await product(body))[0]!;
    const eur = (amount: number) => ({ currency_code: 'EUR', amount });
    const usd = (amount: number) => ({ currency_code: 'USD', amount });
    const shirts = await product({
      title: 'Shirt',
      weight: 200,
      shipping_profile_id: ids.parcels,
      options: [{ title: 'Size', values: ['S', 'M'] }],
      variants: [
        { title: 'S', sku: 'SHIRT-S', options: { Size: 'S' }, prices: [eur(20), usd(25)] },
        { title: 'M', sku: 'SHIRT-M', options: { Size: 'M' }, prices: [eur(20)] },
      ],
    });
    ids.shirtS = shirts[0]!;
    ids.shirtM = shirts[1]!;
    ids.sofa = await one({
      title: 'Sofa',
      shipping_profile_id: ids.bulky,
      variants: [{ title: 'Grey', sku: 'SOFA', weight: 30_000, prices: [eur(500), usd(600)] }],
    });
    ids.ebook = await one({
      title: 'E-book',
      variants: [{ title: 'PDF', manage_inventory: false, prices: [eur(5), usd(6)] }],
    });
    ids.draft = await one({
      title: 'Secret',
      status: 'draft',
      variants: [{ title: 'One', manage_inventory: false, prices: [eur(1)] }],
    });
    ids.elsewhere = await one({
      title: 'Elsewhere',
      sales_channel_ids: [],
      variants: [{ title: 'One', manage_inventory: false, prices: [eur(1)] }],
    });
    const location = await a('POST', 'stock-locations', {
      name: 'Warehouse',
      sales_channel_ids: [shop.salesChannelId],
    });
    const unlinked = await a('POST', 'stock-locations', { name: 'Not for the web' });
    await a(
      'POST',
      'inventory/batch',
      {
        levels: [
          { sku: 'SHIRT-S', stock_location_id: location.id, stocked_quantity: 6 },
          { sku: 'SHIRT-M', stock_location_id: location.id, stocked_quantity: 3 },
          { sku: 'SOFA', stock_location_id: location.id, stocked_quantity: 1 },
          { sku: 'SOFA', stock_location_id: unlinked.id, stocked_quantity: 50 },
        ],
      },
      200,
    );
    const option = async (body: Record<string, unknown>) =>
      (await a('POST', 'shipping-options', { region_id: ids.eu, shipping_profile_id: ids.parcels, ...body }))
        .id;
    ids.standard = await option({ name: 'Standard', price_type: 'flat', amount: 4.9 });
    ids.free = await option({ name: 'Free over 100', price_type: 'flat', amount: 0, min_subtotal: 100 });
    ids.returns = await option({ name: 'Returns', price_type: 'flat', amount: 3, is_return: true });
    ids.freight = await option({
      name: 'Freight',
      shipping_profile_id: ids.bulky,
      price_type: 'weight',
      weight_rates: [
        { up_to_grams: 10_000, amount: 50 },
        { up_to_grams: null, amount: 90 },
      ],
    });
    ids.usStandard = await option({ name: 'US Standard', region_id: ids.us, price_type: 'flat', amount: 8 });
  });
  afterAll(async () => t?.close());

  it('creates a cart in the region of its country, in the key’s channel and mode, with items', async () => {
    const cart = await newCart({
      country_code: 'fr',
      email: 'ann@shop.example',
      items: [{ variant_id: ids.shirtS, quantity: 2 }],
    });
    expect(cart).toMatchObject({
      region_id: ids.eu,
      currency_code: 'EUR',
      country_code: 'FR',
      sales_channel_id: shop.salesChannelId,
      mode: 'test',
      email: 'ann@shop.example',
      completed_at: null,
      shipping_methods: [],
      subtotal: 40,
      shipping_total: 0,
      tax_total: 6.39,
      discount_total: 0,
      total: 40,
    });
    expect(cart.items).toEqual([
      expect.objectContaining({
        variant_id: ids.shirtS,
        title: 'Shirt',
        variant_title: 'S',
        sku: 'SHIRT-S',
        quantity: 2,
        unit_price: 20,
        subtotal: 40,
        metadata: {},
        shipping_profile_id: ids.parcels,
        requires_shipping: true,
      }),
    ]);
    expect(await ok('GET', `carts/${cart.id}`)).toEqual(cart);
    // No country: the store's first region, whose countries are several, so no country yet.
    expect(await newCart({})).toMatchObject({ region_id: ids.eu, country_code: null });
    // The region's only country is taken; a currency picks a region of it.
    expect(await newCart({ currency_code: 'usd' })).toMatchObject({ region_id: ids.us, country_code: 'US' });
  });

  it('refuses a country outside every region, a country or currency beside the region, another channel (422)', async () => {
    expect(loc(await store('POST', 'carts', { country_code: 'JP' }))).toEqual({
      status: 422,
      loc: ['body', 'country_code'],
    });
    expect(loc(await store('POST', 'carts', { region_id: ids.us, country_code: 'DE' }))).toEqual({
      status: 422,
      loc: ['body', 'country_code'],
    });
    expect(loc(await store('POST', 'carts', { region_id: ids.eu, currency_code: 'USD' }))).toEqual({
      status: 422,
      loc: ['body', 'currency_code'],
    });
    expect(loc(await store('POST', 'carts', { region_id: 999_999 }))).toEqual({
      status: 422,
      loc: ['body', 'region_id'],
    });
    expect(loc(await store('POST', 'carts', { sales_channel_id: other.salesChannelId }))).toEqual({
      status: 422,
      loc: ['body', 'sales_channel_id'],
    });
    expect(loc(await store('POST', 'carts', { items: [{ variant_id: 999_999 }] }))).toEqual({
      status: 422,
      loc: ['body', 'items', 0, 'variant_id'],
    });
  });

  it('merges the same variant with deep-equal metadata, keeps others apart; 0 or DELETE removes a line', async () => {
    const cart = await newCart();
    await ok('POST', `carts/${cart.id}/line-items`, {
      variant_id: ids.shirtS,
      metadata: { gift: { wrap: 'red', card: true } },
    });
    await ok('POST', `carts/${cart.id}/line-items`, {
      variant_id: ids.shirtS,
      quantity: 2,
      metadata: { gift: { card: true, wrap: 'red' } },
    });
    let after = await ok('POST', `carts/${cart.id}/line-items`, { variant_id: ids.shirtS });
    expect(after.items.map((i: { quantity: number; metadata: unknown }) => [i.quantity, i.metadata])).toEqual(
      [
        [3, { gift: { wrap: 'red', card: true } }],
        [1, {}],
      ],
    );
    after = await ok('POST', `carts/${cart.id}/line-items`, { variant_id: ids.ebook, quantity: 4 });
    expect(after.items[2]).toMatchObject({
      title: 'E-book',
      sku: null,
      requires_shipping: false,
      subtotal: 20,
    });
    expect(after.subtotal).toBe(100);
    const [first, second, third] = after.items;
    after = await ok('PATCH', `carts/${cart.id}/line-items/${first.id}`, { quantity: 0 });
    expect(after.items.map((i: { id: number }) => i.id)).toEqual([second.id, third.id]);
    const deleted = await store('DELETE', `carts/${cart.id}/line-items/${second.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ id: second.id, object: 'line-item', deleted: true });
    expect(deleted.body.parent.items.map((i: { id: number }) => i.id)).toEqual([third.id]);
    expect((await store('DELETE', `carts/${cart.id}/line-items/${second.id}`)).status).toBe(404);
    expect(loc(await store('PATCH', `carts/${cart.id}/line-items/${third.id}`, { quantity: -1 }))).toEqual({
      status: 422,
      loc: ['body', 'quantity'],
    });
    expect(loc(await add(cart.id, { variant_id: ids.ebook, quantity: 0 }))).toEqual({
      status: 422,
      loc: ['body', 'quantity'],
    });
  });

  it('refuses a variant it cannot sell (409) and more than the channel’s stock (409 insufficient_inventory)', async () => {
    const cart = await newCart();
    for (const variant of [ids.draft, ids.elsewhere]) {
      const res = await add(cart.id, { variant_id: variant });
      expect(res.status).toBe(409);
      expect(res.body.detail).toMatchObject({ error: 'variant_unavailable', variant_id: variant });
    }
    // 1 sofa in the channel's warehouse; the 50 elsewhere serve another channel.
    const sofa = await add(cart.id, { variant_id: ids.sofa, quantity: 2 });
    expect(sofa.status).toBe(409);
    expect(sofa.body.detail).toEqual({
      error: 'insufficient_inventory',
      message: expect.stringContaining(String(ids.sofa)),
      variant_id: ids.sofa,
      available_quantity: 1,
    });
    await ok('POST', `carts/${cart.id}/line-items`, { variant_id: ids.shirtS, quantity: 4 });
    // Lines of one variant share its stock, whatever their metadata.
    const more = await add(cart.id, { variant_id: ids.shirtS, quantity: 3, metadata: { note: 'x' } });
    expect(more.status).toBe(409);
    expect(more.body.detail.variant_id).toBe(ids.shirtS);
    const line = (
      await ok('POST', `carts/${cart.id}/line-items`, {
        variant_id: ids.shirtS,
        quantity: 2,
        metadata: { n: 1 },
      })
    ).items[1];
    expect((await store('PATCH', `carts/${cart.id}/line-items/${line.id}`, { quantity: 3 })).status).toBe(
      409,
    );
    expect(
      (await ok('PATCH', `carts/${cart.id}/line-items/${line.id}`, { quantity: 1 })).items[1].quantity,
    ).toBe(1);
    // Not managed: no stock needed.
    expect(
      (await ok('POST', `carts/${cart.id}/line-items`, { variant_id: ids.ebook, quantity: 500 })).items,
    ).toHaveLength(3);
  });

  it('re-prices every line when the region changes; a variant without a price there is 409 and nothing changes', async () => {
    const cart = await newCart({
      country_code: 'DE',
      items: [{ variant_id: ids.shirtS, quantity: 2 }, { variant_id: ids.shirtM }],
    });
    const refused = await store('PATCH', `carts/${cart.id}`, { country_code: 'US', email: 'x@shop.example' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatchObject({
      error: 'variant_not_priced',
      variant_id: ids.shirtM,
      currency_code: 'USD',
    });
    expect(await ok('GET', `carts/${cart.id}`)).toMatchObject({
      currency_code: 'EUR',
      email: null,
      subtotal: 60,
    });
    await ok('DELETE', `carts/${cart.id}/line-items/${cart.items[1].id}`);
    const moved = await ok('PATCH', `carts/${cart.id}`, { country_code: 'us' });
    expect(moved).toMatchObject({
      region_id: ids.us,
      currency_code: 'USD',
      country_code: 'US',
      subtotal: 50,
      tax_total: 5,
      total: 55,
    });
    expect(moved.items[0].unit_price).toBe(25);
    // By region: the new region's only country; back in EUR.
    expect(await ok('PATCH', `carts/${cart.id}`, { region_id: ids.eu })).toMatchObject({
      currency_code: 'EUR',
      country_code: null,
      subtotal: 40,
    });
    expect(loc(await store('PATCH', `carts/${cart.id}`, { country_code: 'JP' }))).toEqual({
      status: 422,
      loc: ['body', 'country_code'],
    });
    expect(loc(await store('PATCH', `carts/${cart.id}`, { region_id: ids.us, country_code: 'FR' }))).toEqual({
      status: 422,
      loc: ['body', 'country_code'],
    });
  });

  it('takes addresses: the shipping address’s country sets the cart’s, within its region (else 422)', async () => {
    const cart = await newCart({ region_id: ids.eu });
    const address = {
      first_name: 'Ann',
      address_1: '1 Rue',
      city: 'Paris',
      postal_code: '75001',
      country_code: 'fr',
    };
    const set = await ok('PATCH', `carts/${cart.id}`, {
      shipping_address: address,
      billing_address: { ...address, company: 'Ann SARL' },
      note: 'Ring twice',
      locale: 'fr-FR',
      metadata: { source: 'web' },
    });
    expect(set).toMatchObject({
      country_code: 'FR',
      shipping_address: { ...address, country_code: 'fr' },
      billing_address: { company: 'Ann SARL' },
      note: 'Ring twice',
      locale: 'fr-FR',
      metadata: { source: 'web' },
    });
    expect(
      loc(await store('PATCH', `carts/${cart.id}`, { shipping_address: { ...address, country_code: 'US' } })),
    ).toEqual({
      status: 422,
      loc: ['body', 'shipping_address', 'country_code'],
    });
    expect(
      loc(await store('PATCH', `carts/${cart.id}`, { country_code: 'DE', shipping_address: address })),
    ).toEqual({ status: 422, loc: ['body', 'shipping_address', 'country_code'] });
    expect(
      loc(await store('PATCH', `carts/${cart.id}`, { shipping_address: { street: 'x' } })),
    ).toMatchObject({
      status: 422,
    });
    // A region change drops the address its new region does not serve.
    expect(await ok('PATCH', `carts/${cart.id}`, { region_id: ids.us })).toMatchObject({
      shipping_address: null,
      country_code: 'US',
    });
  });

  it('offers the region’s options its items and subtotal allow, priced flat or by weight', async () => {
    const cart = await newCart({ items: [{ variant_id: ids.ebook }] });
    const names = async () =>
      (await ok('GET', `carts/${cart.id}/shipping-options`)).shipping_options.map(
        (o: { name: string; amount: number }) => `${o.name} ${o.amount}`,
      );
    expect(await names()).toEqual([]); // nothing to ship
    await ok('POST', `carts/${cart.id}/line-items`, { variant_id: ids.shirtS, quantity: 4 });
    expect(await names()).toEqual(['Standard 4.9']); // subtotal 85 < 100
    await ok('POST', `carts/${cart.id}/line-items`, { variant_id: ids.shirtM });
    expect(await names()).toEqual(['Standard 4.9', 'Free over 100 0']);
    await ok('POST', `carts/${cart.id}/line-items`, { variant_id: ids.sofa });
    const options = (await ok('GET', `carts/${cart.id}/shipping-options`)).shipping_options;
    expect(options.find((o: { id: number }) => o.id === ids.freight)).toEqual({
      id: ids.freight,
      name: 'Freight',
      region_id: ids.eu,
      shipping_profile_id: ids.bulky,
      price_type: 'weight',
      amount: 90, // 30 kg: above the 10 kg bracket
      currency_code: 'EUR',
      is_selected: false,
    });
    expect(options.map((o: { id: number }) => o.id)).not.toContain(ids.returns);
    expect(options.map((o: { id: number }) => o.id)).not.toContain(ids.usStandard);
  });

  it('keeps one shipping method per profile: choosing replaces it, a change that disallows it drops it', async () => {
    const cart = await newCart({
      items: [{ variant_id: ids.shirtS, quantity: 5 }, { variant_id: ids.sofa }],
    });
    let after = await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    expect(after.shipping_methods).toEqual([
      expect.objectContaining({
        shipping_option_id: ids.standard,
        shipping_profile_id: ids.parcels,
        amount: 4.9,
      }),
    ]);
    after = await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.free });
    after = await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.freight });
    expect(after.shipping_methods.map((m: { shipping_option_id: number }) => m.shipping_option_id)).toEqual([
      ids.free,
      ids.freight,
    ]);
    // Tax included in EUR prices: 600 items + 90 shipping, 19 % inside each.
    expect(after).toMatchObject({ subtotal: 600, shipping_total: 90, total: 690 });
    expect(after.tax_total).toBeCloseTo(15.97 + 79.83 + 14.37, 2);
    const selected = (await ok('GET', `carts/${cart.id}/shipping-options`)).shipping_options.filter(
      (o: { is_selected: boolean }) => o.is_selected,
    );
    expect(selected.map((o: { id: number }) => o.id).sort()).toEqual([ids.free, ids.freight].sort());
    for (const option of [ids.returns, ids.usStandard, 999_999])
      expect(loc(await store('POST', `carts/${cart.id}/shipping-methods`, { option_id: option }))).toEqual({
        status: 422,
        loc: ['body', 'option_id'],
      });
    // The sofa gone, freight goes; below 100, the free option no longer applies and its method goes.
    after = await ok('PATCH', `carts/${cart.id}/line-items/${after.items[1].id}`, { quantity: 0 });
    expect(after.shipping_methods.map((m: { shipping_option_id: number }) => m.shipping_option_id)).toEqual([
      ids.free,
    ]);
    after = await ok('PATCH', `carts/${cart.id}/line-items/${after.items[0].id}`, { quantity: 1 });
    expect(after.shipping_methods).toEqual([]);
    after = await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    expect(after).toMatchObject({ subtotal: 20, shipping_total: 4.9, total: 24.9, tax_total: 3.97 });
  });

  it('answers the region’s payment providers, and no payment needed for a total of 0', async () => {
    const cart = await newCart({ country_code: 'DE' });
    expect(await ok('GET', `carts/${cart.id}/payment-providers`)).toEqual({
      providers: [{ id: 'manual' }, { id: 'stripe' }],
      payment_required: false,
    });
    await ok('POST', `carts/${cart.id}/line-items`, { variant_id: ids.ebook });
    expect((await ok('GET', `carts/${cart.id}/payment-providers`)).payment_required).toBe(true);
    const us = await newCart({ country_code: 'US', items: [{ variant_id: ids.ebook }] });
    expect((await ok('GET', `carts/${us.id}/payment-providers`)).providers).toEqual([{ id: 'manual' }]);
  });

  it('refuses changes to a completed cart (409), still reads it', async () => {
    const cart = await newCart({ items: [{ variant_id: ids.ebook }] });
    await new CartsRepository(tablesOf<CommerceTables>(t.node.runtime)).markCompleted(
      cart.id,
      new Date(t.node.runtime.clock.now()),
    );
    const line = cart.items[0].id;
    for (const [method, path, body] of [
      ['PATCH', `carts/${cart.id}`, { email: 'a@b.example' }],
      ['POST', `carts/${cart.id}/line-items`, { variant_id: ids.ebook }],
      ['PATCH', `carts/${cart.id}/line-items/${line}`, { quantity: 2 }],
      ['DELETE', `carts/${cart.id}/line-items/${line}`, undefined],
      ['POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard }],
    ] as const) {
      const res = await store(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(409);
      expect(res.body.detail.error).toBe('cart_completed');
    }
    expect((await ok('GET', `carts/${cart.id}`)).completed_at).not.toBeNull();
  });

  it('hides a cart from another shop’s key, another mode or channel (404), and wants a key (401)', async () => {
    const cart = await newCart({ items: [{ variant_id: ids.ebook }] });
    expect((await store('GET', `carts/${cart.id}`, undefined, null)).status).toBe(401);
    expect((await store('POST', 'carts', {}, null)).status).toBe(401);
    expect((await store('GET', `carts/${cart.id}`, undefined, other.publishableKey)).status).toBe(404);
    const live = (
      await shop.admin('POST', 'publishable-keys', { sales_channel_id: shop.salesChannelId, mode: 'live' })
    ).key;
    const channel = (await shop.admin('POST', 'sales-channels', { name: 'App' })).id;
    const app = (await shop.admin('POST', 'publishable-keys', { sales_channel_id: channel, mode: 'test' }))
      .key;
    for (const key of [live, app]) {
      expect((await store('GET', `carts/${cart.id}`, undefined, key)).status).toBe(404);
      expect(
        (await store('POST', `carts/${cart.id}/line-items`, { variant_id: ids.ebook }, key)).status,
      ).toBe(404);
      expect((await store('PATCH', `carts/${cart.id}`, { note: 'x' }, key)).status).toBe(404);
    }
    // The other shop's key on its own store does not find this cart id either.
    const theirs = await other.store('GET', `carts/${cart.id}`);
    expect(theirs.status).toBe(404);
    expect((await store('GET', `carts/${cart.id}`)).body.cart.items).toHaveLength(1);
    const live2 = await store('POST', 'carts', {}, live);
    expect(live2.status, live2.text).toBe(201);
    expect(live2.body.cart.mode).toBe('live');
  });

  it('lends completion a locked cart with its totals in minor units, then refuses it once completed', async () => {
    const cart = await newCart({ country_code: 'US', items: [{ variant_id: ids.shirtS, quantity: 2 }] });
    const ctx = commerceContext(t.node.runtime);
    const carts = new CartsService(ctx, new ShopEventLog(ctx));
    const scope = { orgId: shop.orgId, salesChannelId: shop.salesChannelId, mode: 'test' as const };
    const totals = await ctx.transaction(async ({ trx }) => {
      const loaded = await carts.lock(trx, scope, cart.id);
      expect(loaded.lines.map((l) => [Number(l.variant_id), l.quantity, Number(l.unit_price)])).toEqual([
        [ids.shirtS, 2, 2500],
      ]);
      await carts.markCompleted(trx, cart.id);
      return carts.totals(loaded);
    });
    expect(totals).toMatchObject({ subtotal: 5000, shippingTotal: 0, taxTotal: 500, total: 5500 });
    await expect(ctx.transaction(async ({ trx }) => carts.lock(trx, scope, cart.id))).rejects.toMatchObject({
      status: 409,
    });
    await expect(carts.load({ ...scope, mode: 'live' }, cart.id)).rejects.toMatchObject({ status: 404 });
    expect((await carts.load(scope, cart.id)).cart.completed_at).not.toBeNull();
  });

  it('announces cart changes in the shop’s event log', async () => {
    const cart = await newCart({});
    await ok('PATCH', `carts/${cart.id}`, { note: 'hello' });
    const events = (await shop.admin('GET', 'events')).events as { name: string; data: { id?: number } }[];
    const mine = events
      .filter((e) => e.data.id === cart.id && e.name.startsWith('commerce.cart.'))
      .map((e) => e.name);
    expect(mine.sort()).toEqual(['commerce.cart.created', 'commerce.cart.updated']);
  });
});
