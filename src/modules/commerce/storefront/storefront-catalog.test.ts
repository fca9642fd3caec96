import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const backend = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';

describe(`Store API catalogue: regions, categories, collections, products (${backend})`, () => {
  let t: TestApp;
  let shop: Shop;
  let other: Shop;
  const ids: Record<string, number> = {};
  let outletKey: string;

  const get = async (path: string, key?: string | null) => {
    const res = await shop.store('GET', path, undefined, key);
    return res;
  };
  const ok = async (path: string, key?: string) => {
    const res = await get(path, key);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const handles = (body: { products: { handle: string }[] }) => body.products.map((p) => p.handle);

  beforeAll(async () => {
    t = await startTestApp();
    const { token } = await t.signUp();
    shop = await setUpShop(t, token, 'cat-shop');
    other = await setUpShop(t, token, 'cat-other');
    const a = shop.admin;
    ids.eu = (
      await a('POST', 'regions', {
        name: 'Europe',
        currency_code: 'EUR',
        countries: ['de', 'fr'],
        tax_rate: 19,
        tax_inclusive: true,
        payment_providers: ['manual'],
      })
    ).id;
    ids.jp = (await a('POST', 'regions', { name: 'Japan', currency_code: 'JPY', countries: ['jp'] })).id;
    ids.us = (await a('POST', 'regions', { name: 'US', currency_code: 'USD', countries: ['us'] })).id;
    ids.otherRegion = (
      await other.admin('POST', 'regions', { name: 'Elsewhere', currency_code: 'EUR', countries: [] })
    ).id;
    await other.admin('POST', 'collections', { title: 'Foreign' });

    ids.clothes = (await a('POST', 'categories', { name: 'Clothes', rank: 1 })).id;
    ids.shirts = (await a('POST', 'categories', { name: 'Shirts', parent_id: ids.clothes, rank: 2 })).id;
    ids.pants = (await a('POST', 'categories', { name: 'Pants', parent_id: ids.clothes, rank: 1 })).id;
    ids.hidden = (
      await a('POST', 'categories', { name: 'Hidden', parent_id: ids.clothes, is_public: false })
    ).id;
    await a('POST', 'categories', { name: 'Under Hidden', parent_id: ids.hidden });
    ids.archive = (await a('POST', 'categories', { name: 'Archive', is_active: false })).id;
    await a('POST', 'categories', { name: 'Old', parent_id: ids.archive });
    ids.gifts = (await a('POST', 'categories', { name: 'Gifts', rank: 0 })).id;

    for (const title of ['Summer', 'Winter', 'Autumn']) await a('POST', 'collections', { title });
    ids.summer = (await ok('collections/summer')).id;

    ids.outlet = (await a('POST', 'sales-channels', { name: 'Outlet' })).id;
    outletKey = (await a('POST', 'publishable-keys', { sales_channel_id: ids.outlet, mode: 'test' })).key;
    const web = [shop.salesChannelId];
    await a('POST', 'products', {
      title: 'Banana Shirt',
      status: 'published',
      options: [{ title: 'Size', values: ['S', 'M'] }],
      collection_id: ids.summer,
      category_ids: [ids.shirts],
      sales_channel_ids: web,
      variants: [
        {
          title: 'S',
          sku: 'BAN-S',
          options: { Size: 'S' },
          prices: [
            { currency_code: 'EUR', amount: 12.34 },
            { currency_code: 'JPY', amount: 1200 },
          ],
        },
        { title: 'M', sku: 'BAN-M', options: { Size: 'M' }, prices: [{ currency_code: 'EUR', amount: 14 }] },
      ],
    });
    await a('POST', 'products', {
      title: 'Apple Pants',
      status: 'published',
      category_ids: [ids.pants],
      sales_channel_ids: web,
      variants: [
        {
          title: 'One size',
          sku: 'APL',
          manage_inventory: false,
          prices: [{ currency_code: 'EUR', amount: 30 }],
        },
      ],
    });
    await a('POST', 'products', { title: 'Draft Hat', status: 'draft', sales_channel_ids: web });
    await a('POST', 'products', {
      title: 'Outlet Coat',
      status: 'published',
      sales_channel_ids: [ids.outlet],
    });
    await a('POST', 'products', { title: 'Cherry Socks', status: 'published', sales_channel_ids: web });

    ids.wh = (await a('POST', 'stock-locations', { name: 'Berlin', sales_channel_ids: web })).id;
    ids.depot = (await a('POST', 'stock-locations', { name: 'Depot', sales_channel_ids: [ids.outlet] })).id;
    await a(
      'POST',
      'inventory/batch',
      {
        levels: [
          { sku: 'BAN-S', stock_location_id: ids.wh, stocked_quantity: 5 },
          { sku: 'BAN-S', stock_location_id: ids.depot, stocked_quantity: 100 },
          { sku: 'BAN-M', stock_location_id: ids.depot, stocked_quantity: 3 },
        ],
      },
      200,
    );
  });
  afterAll(async () => t?.close());

  it('lists regions and reads one; another shop’s or an unknown region is 404', async () => {
    const { regions } = await ok('regions');
    expect(regions.map((r: { name: string }) => r.name)).toEqual(['Europe', 'Japan', 'US']);
    expect(regions[0]).toEqual({
      id: ids.eu,
      name: 'Europe',
      currency_code: 'EUR',
      countries: ['DE', 'FR'],
      tax_rate: 19,
      tax_inclusive: true,
      payment_providers: ['manual'],
    });
    expect(await ok(`regions/${ids.jp}`)).toMatchObject({
      name: 'Japan',
      currency_code: 'JPY',
      countries: ['JP'],
    });
    expect((await get(`regions/${ids.otherRegion}`)).status).toBe(404);
    expect((await get('regions/999999')).status).toBe(404);
    expect((await get('regions/abc')).status).toBe(422);
  });

  it('shows active public categories as a tree, hiding whole hidden branches', async () => {
    const { categories } = await ok('categories');
    const shape = (nodes: { handle: string; children: unknown[] }[]): unknown =>
      nodes.map((n) => [n.handle, shape(n.children as never)]);
    expect(shape(categories)).toEqual([
      ['gifts', []],
      [
        'clothes',
        [
          ['pants', []],
          ['shirts', []],
        ],
      ],
    ]);
    expect(categories[1].children[0]).toEqual({
      id: ids.pants,
      name: 'Pants',
      handle: 'pants',
      parent_id: ids.clothes,
      rank: 1,
      children: [],
    });
    const clothes = await ok('categories/clothes');
    expect(clothes.children.map((c: { handle: string }) => c.handle)).toEqual(['pants', 'shirts']);
    for (const hidden of ['hidden', 'under-hidden', 'archive', 'old', 'nope'])
      expect((await get(`categories/${hidden}`)).status, hidden).toBe(404);
  });

  it('pages collections in the order they were made; another shop’s is 404', async () => {
    const all = await ok('collections');
    expect(all).toMatchObject({ count: 3, limit: 50, offset: 0 });
    expect(all.collections.map((c: { handle: string }) => c.handle)).toEqual(['summer', 'winter', 'autumn']);
    const page = await ok('collections?limit=1&offset=1');
    expect(page).toEqual({
      collections: [{ id: ids.summer! + 1, title: 'Winter', handle: 'winter' }],
      count: 3,
      limit: 1,
      offset: 1,
    });
    expect(await ok('collections/autumn')).toMatchObject({ title: 'Autumn' });
    expect((await get('collections/foreign')).status).toBe(404);
    expect((await get('collections?limit=101')).status).toBe(422);
  });

  it('lists the channel’s published products in each order, paged', async () => {
    const newest = await ok('products');
    expect(newest).toMatchObject({ count: 3, limit: 20, offset: 0 });
    expect(handles(newest)).toEqual(['cherry-socks', 'apple-pants', 'banana-shirt']);
    expect(handles(await ok('products?order=created_at'))).toEqual([
      'banana-shirt',
      'apple-pants',
      'cherry-socks',
    ]);
    expect(handles(await ok('products?order=title'))).toEqual([
      'apple-pants',
      'banana-shirt',
      'cherry-socks',
    ]);
    expect(handles(await ok('products?order=-title'))).toEqual([
      'cherry-socks',
      'banana-shirt',
      'apple-pants',
    ]);
    const page = await ok('products?order=title&limit=1&offset=1');
    expect(page).toMatchObject({ count: 3, limit: 1, offset: 1 });
    expect(handles(page)).toEqual(['banana-shirt']);
    expect(await ok('products?offset=10')).toMatchObject({ products: [], count: 3 });
  });

  it('filters by collection, category and title', async () => {
    expect(handles(await ok('products?collection_handle=summer'))).toEqual(['banana-shirt']);
    expect(handles(await ok('products?collection_handle=winter'))).toEqual([]);
    expect(handles(await ok('products?category_handle=pants'))).toEqual(['apple-pants']);
    expect(handles(await ok('products?q=SHI'))).toEqual(['banana-shirt']);
    expect(handles(await ok('products?q=%25'))).toEqual([]);
  });

  it('shows variants with prices in major units, priced in a region’s currency (JPY has no minor unit)', async () => {
    const plain = (await ok('products?order=created_at')).products[0];
    expect(plain).toMatchObject({ title: 'Banana Shirt', collection_id: ids.summer });
    expect(plain.variants[0]).toMatchObject({
      title: 'S',
      sku: 'BAN-S',
      options: { Size: 'S' },
      prices: [
        { currency_code: 'EUR', amount: 12.34 },
        { currency_code: 'JPY', amount: 1200 },
      ],
      calculated_price: null,
    });
    const priced = async (region: number) =>
      (await ok(`products?order=created_at&region_id=${region}`)).products[0].variants.map(
        (v: { calculated_price: unknown }) => v.calculated_price,
      );
    expect(await priced(ids.eu!)).toEqual([
      { currency_code: 'EUR', amount: 12.34 },
      { currency_code: 'EUR', amount: 14 },
    ]);
    expect(await priced(ids.jp!)).toEqual([{ currency_code: 'JPY', amount: 1200 }, null]);
    expect(await priced(ids.us!)).toEqual([null, null]);
    const unknown = await get(`products?region_id=${ids.otherRegion}`);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['query', 'region_id']);
  });

  it('counts stock in the key’s channel’s locations; unmanaged variants are always in stock', async () => {
    const stockOf = async (key?: string) =>
      Object.fromEntries(
        (await ok('products?order=created_at', key)).products.flatMap(
          (p: { variants: { sku: string; inventory_quantity: number | null; in_stock: boolean }[] }) =>
            p.variants.map((v) => [v.sku, [v.inventory_quantity, v.in_stock]]),
        ),
      );
    expect(await stockOf()).toEqual({ 'BAN-S': [5, true], 'BAN-M': [0, false], APL: [null, true] });
  });

  it('shows each key only its channel’s products; a disabled channel shows none', async () => {
    const outlet = await ok('products', outletKey);
    expect(handles(outlet)).toEqual(['outlet-coat']);
    expect(handles(await ok('products?q=coat'))).toEqual([]);
    await shop.admin('PATCH', `sales-channels/${ids.outlet}`, { is_disabled: true });
    expect(await ok('products', outletKey)).toMatchObject({ products: [], count: 0 });
    await shop.admin('PATCH', `sales-channels/${ids.outlet}`, { is_disabled: false });
    expect((await ok('products', outletKey)).count).toBe(1);
  });

  it('refuses bad paging and order (422 naming the field) and calls without a key (401)', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['offset=-1', 'offset'],
      ['order=price', 'order'],
      ['region_id=x', 'region_id'],
    ]) {
      const res = await get(`products?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.body.detail[0].loc, query).toEqual(['query', field]);
    }
    for (const path of [
      'regions',
      `regions/${ids.eu}`,
      'categories',
      'categories/clothes',
      'collections',
      'collections/summer',
      'products',
    ])
      expect((await get(path, null)).status, path).toBe(401);
    expect((await get('products', other.publishableKey)).status).toBe(404);
  });
});
