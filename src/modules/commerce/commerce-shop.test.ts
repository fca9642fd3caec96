import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { ORGS, createOrg } from '../../testing/org-fixture.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../testing/test-app.ts';
import type { CommerceTables } from './commerce-tables.ts';
import { CommerceListsRepository } from './lists/commerce-lists-repository.ts';

/** The scopes the shop's set-up needs, and no other. */
const SETUP_SCOPES = [
  'commerce.store:write',
  'commerce.catalog:write',
  'commerce.inventory:write',
  'commerce.orders:write',
];

type Res = TestResponse<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Commerce administration: a shop set up with an organization key', () => {
  let t: TestApp;
  let owner: string;
  let orgId: number;
  let key: string;
  const ids: Record<string, number> = {};

  const newKey = async (slug: string, scopes: string[]): Promise<string> => {
    const res = await t.request('POST', `${ORGS}/${slug}/api-keys`, {
      token: owner,
      body: { label: scopes.join(' ') || 'none', permissions: { scopes } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.raw_key as string;
  };
  const call = (method: string, path: string, body?: unknown, withKey = key, slug = 'shop-a'): Promise<Res> =>
    t.request(method, `${ORGS}/${slug}/commerce/${path}`, {
      headers: { 'x-api-key': withKey },
      ...(body !== undefined ? { body } : {}),
    });
  const ok = async (method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200) => {
    const res = await call(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body;
  };
  const problem = (res: Res) => ({ status: res.status, loc: res.body?.detail?.[0]?.loc });

  beforeAll(async () => {
    t = await startTestApp();
    ({ token: owner } = await t.signUp());
    orgId = (await createOrg(t, owner, 'shop-a')).id;
    await createOrg(t, owner, 'shop-b');
    for (const slug of ['shop-a', 'shop-b'])
      await t.request('PATCH', `${ORGS}/${slug}/settings`, {
        token: owner,
        body: { commerce_enabled: true },
      });
    key = await newKey('shop-a', SETUP_SCOPES);
  });
  afterAll(async () => t?.close());

  it('sets the store, a sales channel and its publishable keys (shown once, then a prefix; revocable)', async () => {
    expect(await ok('GET', 'store')).toMatchObject({ name: null, default_currency_code: 'EUR' });
    expect(
      await ok('PATCH', 'store', {
        name: 'Reseller',
        default_currency_code: 'jpy',
        support_email: 'help@shop.example',
      }),
    ).toMatchObject({ name: 'Reseller', default_currency_code: 'JPY', support_email: 'help@shop.example' });
    expect(problem(await call('PATCH', 'store', { default_currency_code: 'XYZ' }))).toEqual({
      status: 422,
      loc: ['body', 'default_currency_code'],
    });
    ids.channel = (await ok('POST', 'sales-channels', { name: 'Web shop' })).id;
    const pk = await ok('POST', 'publishable-keys', {
      sales_channel_id: ids.channel,
      mode: 'test',
      label: 'web',
    });
    expect(pk.key).toMatch(/^pk_test_[A-Za-z0-9_-]{40}$/);
    expect(pk.key.startsWith(pk.key_prefix)).toBe(true);
    const live = await ok('POST', 'publishable-keys', { sales_channel_id: ids.channel, mode: 'live' });
    expect(live.key).toMatch(/^pk_live_/);
    const listed = await ok('GET', 'publishable-keys');
    expect(listed.publishable_keys).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(pk.key);
    expect(listed.publishable_keys[1]).toEqual({
      id: pk.id,
      sales_channel_id: ids.channel,
      mode: 'test',
      label: 'web',
      key_prefix: pk.key_prefix,
      revoked_at: null,
      created_at: expect.any(String),
    });
    const revoked = await ok('POST', `publishable-keys/${pk.id}/revoke`, undefined, 200);
    expect(revoked.revoked_at).toEqual(expect.any(String));
    expect((await call('POST', 'publishable-keys', { sales_channel_id: 999999, mode: 'test' })).status).toBe(
      422,
    );
    expect((await call('DELETE', `sales-channels/${ids.channel}`)).status).toBe(409);
  });

  it('sets regions: currency codes checked, a country in one region only', async () => {
    const eu = await ok('POST', 'regions', {
      name: 'Europe',
      currency_code: 'eur',
      countries: ['de', 'FR'],
      tax_rate: 19,
      payment_providers: ['manual', 'stripe'],
    });
    expect(eu).toMatchObject({
      currency_code: 'EUR',
      countries: ['DE', 'FR'],
      tax_rate: 19,
      tax_inclusive: false,
      payment_providers: ['manual', 'stripe'],
    });
    ids.eu = eu.id;
    ids.jp = (await ok('POST', 'regions', { name: 'Japan', currency_code: 'JPY', countries: ['jp'] })).id;
    expect(
      (await call('POST', 'regions', { name: 'X', currency_code: 'EUR', countries: ['de'] })).status,
    ).toBe(409);
    expect(
      problem(await call('POST', 'regions', { name: 'X', currency_code: 'XYZ', countries: [] })),
    ).toEqual({
      status: 422,
      loc: ['body', 'currency_code'],
    });
    expect(
      problem(await call('POST', 'regions', { name: 'X', currency_code: 'EUR', countries: ['deu'] })),
    ).toEqual({
      status: 422,
      loc: ['body', 'countries', 0],
    });
    expect(
      (await ok('PATCH', `regions/${ids.eu}`, { countries: ['de', 'fr', 'at'], tax_inclusive: true }))
        .countries,
    ).toEqual(['AT', 'DE', 'FR']);
  });

  it('sets shipping: profiles, flat and by-weight options in the region’s currency, subtotal bounds', async () => {
    ids.profile = (await ok('POST', 'shipping-profiles', { name: 'Default' })).id;
    const flat = await ok('POST', 'shipping-options', {
      name: 'Standard',
      region_id: ids.eu,
      shipping_profile_id: ids.profile,
      price_type: 'flat',
      amount: 4.95,
      max_subtotal: 49.99,
    });
    expect(flat).toMatchObject({
      currency_code: 'EUR',
      amount: 4.95,
      max_subtotal: 49.99,
      min_subtotal: null,
    });
    const heavy = await ok('POST', 'shipping-options', {
      name: 'By weight',
      region_id: ids.jp,
      shipping_profile_id: ids.profile,
      price_type: 'weight',
      weight_rates: [
        { up_to_grams: 1000, amount: 800 },
        { up_to_grams: null, amount: 1500 },
      ],
    });
    expect(heavy).toMatchObject({
      currency_code: 'JPY',
      amount: null,
      weight_rates: [
        { up_to_grams: 1000, amount: 800 },
        { up_to_grams: null, amount: 1500 },
      ],
    });
    await ok('POST', 'shipping-options', {
      name: 'Returns',
      region_id: ids.eu,
      shipping_profile_id: ids.profile,
      price_type: 'flat',
      amount: 0,
      is_return: true,
    });
    const bad = (body: Record<string, unknown>) =>
      call('POST', 'shipping-options', {
        name: 'Bad',
        region_id: ids.eu,
        shipping_profile_id: ids.profile,
        price_type: 'flat',
        ...body,
      }).then(problem);
    expect(await bad({})).toEqual({ status: 422, loc: ['body', 'amount'] });
    expect(await bad({ amount: 4.955 })).toEqual({ status: 422, loc: ['body', 'amount'] });
    expect(await bad({ amount: 1, min_subtotal: 10, max_subtotal: 5 })).toEqual({
      status: 422,
      loc: ['body', 'max_subtotal'],
    });
    expect(
      await bad({
        price_type: 'weight',
        weight_rates: [
          { up_to_grams: 5, amount: 1 },
          { up_to_grams: 5, amount: 2 },
        ],
      }),
    ).toEqual({
      status: 422,
      loc: ['body', 'weight_rates', 1, 'up_to_grams'],
    });
    expect(await bad({ amount: 1, region_id: 999999 })).toEqual({ status: 422, loc: ['body', 'region_id'] });
    expect((await ok('GET', `shipping-options?region_id=${ids.jp}`)).shipping_options).toHaveLength(1);
    expect((await call('PATCH', `regions/${ids.jp}`, { currency_code: 'USD' })).status).toBe(409);
  });

  it('builds the catalogue: collections, a category tree, products with options, variants, SKUs and prices', async () => {
    ids.collection = (await ok('POST', 'collections', { title: 'Summer Sale' })).id;
    expect((await ok('GET', 'collections')).collections[0]).toMatchObject({ handle: 'summer-sale' });
    ids.clothes = (await ok('POST', 'categories', { name: 'Clothes' })).id;
    ids.shirts = (await ok('POST', 'categories', { name: 'Shirts', parent_id: ids.clothes, rank: 1 })).id;
    expect(problem(await call('PATCH', `categories/${ids.clothes}`, { parent_id: ids.shirts }))).toEqual({
      status: 422,
      loc: ['body', 'parent_id'],
    });
    expect((await call('DELETE', `categories/${ids.clothes}`)).status).toBe(409);
    const tree = (await ok('GET', 'categories')).product_categories;
    expect(tree.map((c: { handle: string; parent_id: number | null }) => [c.handle, c.parent_id])).toEqual([
      ['clothes', null],
      ['shirts', ids.clothes],
    ]);

    const product = await ok('POST', 'products', {
      title: 'Blue T-Shirt',
      status: 'published',
      images: ['https://cdn.shop.example/blue.png'],
      options: [{ title: 'Size', values: ['S', 'M'] }],
      weight: 200,
      collection_id: ids.collection,
      shipping_profile_id: ids.profile,
      category_ids: [ids.shirts],
      sales_channel_ids: [ids.channel],
      variants: [
        {
          title: 'S',
          sku: 'TS-BLUE-S',
          options: { Size: 'S' },
          prices: [
            { currency_code: 'eur', amount: 12.34 },
            { currency_code: 'JPY', amount: 1200 },
          ],
        },
        {
          title: 'M',
          sku: 'TS-BLUE-M',
          options: { Size: 'M' },
          prices: [{ currency_code: 'EUR', amount: 14 }],
        },
      ],
    });
    ids.product = product.id;
    expect(product).toMatchObject({
      handle: 'blue-t-shirt',
      status: 'published',
      images: ['https://cdn.shop.example/blue.png'],
      category_ids: [ids.shirts],
      sales_channel_ids: [ids.channel],
      collection_id: ids.collection,
    });
    expect(product.variants.map((v: { sku: string; prices: unknown }) => [v.sku, v.prices])).toEqual([
      [
        'TS-BLUE-S',
        [
          { currency_code: 'EUR', amount: 12.34 },
          { currency_code: 'JPY', amount: 1200 },
        ],
      ],
      ['TS-BLUE-M', [{ currency_code: 'EUR', amount: 14 }]],
    ]);
    // Stored as integers of the minor unit: EUR 12.34 is 1234, JPY 1200 is 1200.
    const stored = await tablesOf<CommerceTables>(t.node.runtime)
      .selectFrom('commerce_variant_prices')
      .select(['currency_code', 'amount'])
      .where('variant_id', '=', product.variants[0].id)
      .orderBy('currency_code')
      .execute();
    expect(stored.map((p) => [p.currency_code, Number(p.amount)])).toEqual([
      ['EUR', 1234],
      ['JPY', 1200],
    ]);
    expect((await ok('GET', `products/${ids.product}`)).variants[0].prices).toEqual(
      product.variants[0].prices,
    );
    ids.variantS = product.variants[0].id;

    const variant = (v: Record<string, unknown>) =>
      call('POST', `products/${ids.product}/variants`, { title: 'L', ...v });
    expect((await call('POST', 'products', { title: 'Blue T-Shirt' })).status).toBe(409);
    expect((await variant({ sku: 'TS-BLUE-S', options: { Size: 'S' } })).status).toBe(422);
    expect((await variant({ sku: 'TS-BLUE-S' })).status).toBe(422);
    const bigger = await ok('PATCH', `products/${ids.product}`, {
      options: [{ title: 'Size', values: ['S', 'M', 'L'] }],
    });
    expect(bigger.options).toEqual([{ title: 'Size', values: ['S', 'M', 'L'] }]);
    expect((await variant({ sku: 'TS-BLUE-S', options: { Size: 'L' } })).status).toBe(409);
    expect(
      problem(
        await variant({
          sku: 'L1',
          options: { Size: 'L' },
          prices: [{ currency_code: 'EUR', amount: 12.345 }],
        }),
      ),
    ).toEqual({
      status: 422,
      loc: ['body', 'prices', 0, 'amount'],
    });
    expect(
      problem(
        await variant({
          sku: 'L1',
          options: { Size: 'L' },
          prices: [{ currency_code: 'JPY', amount: 12.5 }],
        }),
      ),
    ).toEqual({
      status: 422,
      loc: ['body', 'prices', 0, 'amount'],
    });
    expect(
      problem(
        await variant({ sku: 'L1', options: { Size: 'L' }, prices: [{ currency_code: 'ABC', amount: 1 }] }),
      ),
    ).toEqual({
      status: 422,
      loc: ['body', 'prices', 0, 'currency_code'],
    });
    expect(problem(await variant({ sku: 'L1', options: { Size: 'XL' } }))).toEqual({
      status: 422,
      loc: ['body', 'options'],
    });
    const withL = await ok('POST', `products/${ids.product}/variants`, {
      title: 'L',
      sku: 'TS-BLUE-L',
      options: { Size: 'L' },
      prices: [{ currency_code: 'EUR', amount: 16.5 }],
    });
    expect(withL.variants).toHaveLength(3);
    const repriced = await ok('PATCH', `products/${ids.product}/variants/${ids.variantS}`, {
      prices: [{ currency_code: 'EUR', amount: 9.99 }],
    });
    expect(repriced.variants[0].prices).toEqual([{ currency_code: 'EUR', amount: 9.99 }]);
    expect(problem(await call('POST', 'products', { title: 'Other', category_ids: [999999] }))).toEqual({
      status: 422,
      loc: ['body', 'category_ids', 0],
    });
    // PostgreSQL keeps no NUL character: refused naming the field, never a 500.
    expect(problem(await call('POST', 'products', { title: 'a\u0000b' }))).toEqual({
      status: 422,
      loc: ['body', 'title'],
    });
    expect(problem(await call('GET', 'orders?q=%00'))).toEqual({ status: 422, loc: ['query', 'q'] });
    const listed = await ok('GET', 'products');
    expect(listed).toMatchObject({ count: 1, limit: 50, offset: 0 });
    expect(listed.products[0]).toMatchObject({
      title: 'Blue T-Shirt',
      handle: 'blue-t-shirt',
      status: 'published',
    });
  });

  it('keeps stock: locations serving sales channels, levels set in a batch by SKU', async () => {
    const wh = await ok('POST', 'stock-locations', {
      name: 'Warehouse',
      address: { city: 'Berlin', country_code: 'de' },
      sales_channel_ids: [ids.channel],
    });
    expect(wh).toMatchObject({
      address: { city: 'Berlin', country_code: 'DE' },
      sales_channel_ids: [ids.channel],
    });
    ids.wh = wh.id;
    const set = await ok(
      'POST',
      'inventory/batch',
      {
        levels: [
          { sku: 'TS-BLUE-S', stock_location_id: ids.wh, stocked_quantity: 10 },
          { sku: 'TS-BLUE-M', stock_location_id: ids.wh, stocked_quantity: 4 },
        ],
      },
      200,
    );
    expect(
      set.levels.map((l: { sku: string; available_quantity: number }) => [l.sku, l.available_quantity]),
    ).toEqual([
      ['TS-BLUE-S', 10],
      ['TS-BLUE-M', 4],
    ]);
    await ok(
      'POST',
      'inventory/batch',
      { levels: [{ sku: 'TS-BLUE-S', stock_location_id: ids.wh, stocked_quantity: 7 }] },
      200,
    );
    const levels = await ok('GET', `inventory?sku=TS-BLUE-S`);
    expect(levels).toMatchObject({
      count: 1,
      levels: [{ sku: 'TS-BLUE-S', stocked_quantity: 7, reserved_quantity: 0 }],
    });
    expect(
      problem(
        await call('POST', 'inventory/batch', {
          levels: [
            { sku: 'TS-BLUE-S', stock_location_id: ids.wh, stocked_quantity: 1 },
            { sku: 'NOPE', stock_location_id: ids.wh, stocked_quantity: 1 },
          ],
        }),
      ),
    ).toEqual({ status: 422, loc: ['body', 'levels', 1, 'sku'] });
    // All or none: the first entry of the refused batch did not apply.
    expect((await ok('GET', `inventory?sku=TS-BLUE-S`)).levels[0].stocked_quantity).toBe(7);
  });

  it('reads and edits orders: notes, q, placed_from and placed_to (excluded)', async () => {
    const repo = new CommerceListsRepository(tablesOf<CommerceTables>(t.node.runtime));
    const T0 = Date.UTC(2026, 10, 1);
    for (let i = 0; i < 3; i++)
      ids[`order${i}`] = await repo.insertOrder({
        org_id: orgId,
        order_number: `#20${i}`,
        email: `buyer${i}@shop.example`,
        customer_id: null,
        status: 'placed',
        currency: 'EUR',
        total: '12.34',
        placed_at: new Date(T0 + i * 3600_000),
      });
    const from = new Date(T0).toISOString();
    const to = new Date(T0 + 2 * 3600_000).toISOString();
    const ranged = await ok('GET', `orders?placed_from=${from}&placed_to=${to}&q=buyer`);
    expect(ranged.orders.map((o: { order_number: string }) => o.order_number)).toEqual(['#201', '#200']);
    const edited = await ok('PATCH', `orders/${ids.order1}`, {
      email: 'new@shop.example',
      metadata: { gift: true },
    });
    expect(edited).toMatchObject({ email: 'new@shop.example', metadata: { gift: true }, notes: [] });
    const note = await ok('POST', `orders/${ids.order1}/notes`, { body: 'Call before delivery' });
    expect(note).toMatchObject({ body: 'Call before delivery', author: expect.stringMatching(/^key:\d+$/) });
    expect((await ok('GET', `orders/${ids.order1}`)).notes).toEqual([note]);
    expect(problem(await call('PATCH', `orders/${ids.order1}`, { email: 'not mail' }))).toEqual({
      status: 422,
      loc: ['body', 'email'],
    });
  });

  it('announces every change as commerce.<object>.<verb>: in the event list and the organization’s outbox', async () => {
    const first = await ok('GET', 'events?limit=200');
    const names: string[] = first.events.map((e: { name: string }) => e.name);
    for (const n of [
      'commerce.store.updated',
      'commerce.sales_channel.created',
      'commerce.publishable_key.created',
      'commerce.publishable_key.revoked',
      'commerce.region.created',
      'commerce.region.updated',
      'commerce.shipping_profile.created',
      'commerce.shipping_option.created',
      'commerce.product_collection.created',
      'commerce.product_category.created',
      'commerce.product.created',
      'commerce.product.updated',
      'commerce.product_variant.created',
      'commerce.product_variant.updated',
      'commerce.stock_location.created',
      'commerce.inventory.updated',
      'commerce.order.updated',
      'commerce.order.note_created',
    ])
      expect(names, n).toContain(n);
    // Refused changes announce nothing: one inventory event per applied batch.
    expect(names.filter((n) => n === 'commerce.inventory.updated')).toHaveLength(2);
    expect(first.events[0].name).toBe('commerce.order.note_created');
    const created = first.events.find((e: { name: string }) => e.name === 'commerce.product.created');
    expect(created.data).toEqual({ id: ids.product, handle: 'blue-t-shirt' });
    const page = await ok('GET', 'events?limit=2');
    const next = await ok('GET', `events?limit=2&before_id=${page.next_before_id}`);
    expect(next.events[0].id).toBeLessThan(page.events[1].id);
    const outbox = await tablesOf<{ events: { org_id: number; name: string; payload: unknown } }>(
      t.node.runtime,
    )
      .selectFrom('events')
      .select(['name', 'payload'])
      .where('org_id', '=', orgId)
      .where('name', 'like', 'commerce.%')
      .execute();
    expect(outbox.map((e) => e.name).sort()).toEqual([...names].sort());
    expect(outbox.find((e) => e.name === 'commerce.product.created')!.payload).toEqual(created.data);
  });

  it('answers 403 scope_required naming each scope a key lacks', async () => {
    const cases: [string[], string, string, unknown, string][] = [
      [['commerce.catalog:write', 'commerce.orders:write'], 'GET', 'store', undefined, 'commerce.store:read'],
      [['commerce.store:read'], 'PATCH', 'store', { name: 'x' }, 'commerce.store:write'],
      [
        ['commerce.store:read'],
        'POST',
        'publishable-keys',
        { sales_channel_id: 1, mode: 'test' },
        'commerce.store:write',
      ],
      [
        ['commerce.catalog:write'],
        'POST',
        'regions',
        { name: 'x', currency_code: 'EUR', countries: [] },
        'commerce.store:write',
      ],
      [['commerce.store:write'], 'GET', 'regions', undefined, 'commerce.catalog:read'],
      [['commerce.store:write'], 'GET', `products/${ids.product}`, undefined, 'commerce.catalog:read'],
      [['commerce.catalog:read'], 'POST', 'products', { title: 'x' }, 'commerce.catalog:write'],
      [
        ['commerce.catalog:read', 'commerce.store:write'],
        'POST',
        'stock-locations',
        { name: 'x' },
        'commerce.catalog:write',
      ],
      [['commerce.catalog:write'], 'POST', 'inventory/batch', { levels: [] }, 'commerce.inventory:write'],
      [['commerce.store:write'], 'GET', 'shipping-options', undefined, 'commerce.catalog:read'],
      [['commerce.catalog:write'], 'POST', 'shipping-profiles', { name: 'x' }, 'commerce.store:write'],
      [['commerce.catalog:write'], 'GET', `orders/${ids.order1}`, undefined, 'commerce.orders:read'],
      [
        ['commerce.orders:read'],
        'POST',
        `orders/${ids.order1}/notes`,
        { body: 'x' },
        'commerce.orders:write',
      ],
      [['commerce.catalog:write'], 'GET', 'events', undefined, 'commerce.store:read'],
    ];
    for (const [scopes, method, path, body, needed] of cases) {
      const k = await newKey('shop-a', scopes);
      const res = await call(method, path, body, k);
      expect([res.status, res.body], `${method} ${path} with ${scopes}`).toEqual([
        403,
        { detail: { code: 'scope_required', message: `This API key needs the ${needed} scope.` } },
      ]);
    }
  });

  it('keeps each organization’s shop its own: another organization’s objects answer 404', async () => {
    const other = await newKey('shop-b', ['commerce:*']);
    const b = (method: string, path: string, body?: unknown) => call(method, path, body, other, 'shop-b');
    for (const [method, path, body] of [
      ['GET', `products/${ids.product}`],
      ['PATCH', `products/${ids.product}`, { title: 'mine' }],
      ['GET', `regions/${ids.eu}`],
      ['GET', `sales-channels/${ids.channel}`],
      ['DELETE', `shipping-profiles/${ids.profile}`],
      ['PATCH', `stock-locations/${ids.wh}`, { name: 'mine' }],
      ['GET', `orders/${ids.order1}`],
      ['POST', `orders/${ids.order1}/notes`, { body: 'mine' }],
    ] as [string, string, unknown?][])
      expect((await b(method, path, body)).status, `${method} ${path}`).toBe(404);
    // The same handle and SKU are free in another shop.
    const res = await b('POST', 'products', {
      title: 'Blue T-Shirt',
      variants: [{ title: 'S', sku: 'TS-BLUE-S', prices: [{ currency_code: 'EUR', amount: 1 }] }],
    });
    expect(res.status, res.text).toBe(201);
    expect((await b('GET', 'events')).body.events.map((e: { name: string }) => e.name)).toEqual([
      'commerce.product.created',
    ]);
    expect((await call('GET', 'products', undefined, other)).status).toBe(404);
  });
});
