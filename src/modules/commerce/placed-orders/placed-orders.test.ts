import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import { OrderAccessTokens } from './order-access-token.ts';
import { PlacedOrdersRepository, type PlacedOrderRow } from './placed-orders-repository.ts';

describe('Placed orders: display ids, the order read by token, the lookup', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 30, 9));
  let t: TestApp;
  let db: Kysely<CommerceTables>;
  let repo: PlacedOrdersRepository;
  let tokens: OrderAccessTokens;
  let shop: Shop;
  let other: Shop;
  let liveKey: string;

  /** Places an order as a completion would: one transaction, a display id, the order and its items. */
  const place = (
    s: Shop,
    over: { email?: string; mode?: 'test' | 'live'; currency?: string; total?: number } = {},
  ): Promise<PlacedOrderRow> =>
    db.transaction().execute(async (trx) => {
      const r = repo.withTx(trx);
      const order = await r.insertOrder({
        org_id: s.orgId,
        display_id: await r.nextDisplayId(s.orgId),
        email: over.email ?? 'ada@shop.example',
        currency: over.currency ?? 'eur',
        mode: over.mode ?? 'test',
        cart_id: null,
        region_id: null,
        sales_channel_id: s.salesChannelId,
        shipping_address: { first_name: 'Ada', city: 'Berlin', country_code: 'de' },
        billing_address: null,
        subtotal_minor: 2500,
        shipping_total_minor: 490,
        tax_total_minor: 0,
        discount_total_minor: 250,
        total_minor: over.total ?? 2740,
      });
      await r.insertItems(s.orgId, order.id, [
        {
          variant_id: 7,
          product_id: 3,
          title: 'Mug',
          sku: 'MUG-1',
          quantity: 2,
          unit_price_minor: 1250,
          subtotal_minor: 2500,
          metadata: { colour: 'blue' },
        },
      ]);
      return order;
    });
  const read = (s: Shop, id: number, token?: string, key?: string) =>
    s.store(
      'GET',
      `orders/${id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
      undefined,
      key,
    );

  beforeAll(async () => {
    t = await startTestApp({ clock });
    db = tablesOf<CommerceTables>(t.node.runtime);
    repo = new PlacedOrdersRepository(db, clock);
    tokens = new OrderAccessTokens(t.node.runtime.sealer, clock);
    const { token: owner } = await t.signUp();
    shop = await setUpShop(t, owner, 'orders-a');
    other = await setUpShop(t, owner, 'orders-b');
    liveKey = (
      await shop.admin('POST', 'publishable-keys', { sales_channel_id: shop.salesChannelId, mode: 'live' })
    ).key;
  });
  afterAll(async () => t?.close());

  it('counts display ids 1, 2, 3 per organization and stores the order as the lists show it', async () => {
    const [a1, a2] = [await place(shop), await place(shop)];
    const b1 = await place(other);
    const a3 = await place(shop, { currency: 'jpy', total: 1200 });
    expect([a1, a2, a3].map((o) => o.display_id)).toEqual([1, 2, 3]);
    expect(b1.display_id).toBe(1);
    expect(a1).toMatchObject({ order_number: '#1', status: 'pending', currency: 'EUR', total: '27.40' });
    expect(new Date(a1.placed_at).getTime()).toBe(clock.now());
    // JPY has no minor unit: 1200 minor is 1200 yen in the lists' column.
    expect(a3).toMatchObject({ order_number: '#3', currency: 'JPY', total: '1200.00' });
  });

  it('gives concurrent callers distinct display ids', async () => {
    const s = await setUpShop(t, (await t.signUp()).token, 'orders-race');
    const ids = await Promise.all(
      Array.from({ length: 8 }, () =>
        db.transaction().execute((trx) => repo.withTx(trx).nextDisplayId(s.orgId)),
      ),
    );
    expect([...ids].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('stores an order’s payment and reservations in the completion’s transaction', async () => {
    const location = await shop.admin('POST', 'stock-locations', { name: 'Depot' });
    const placed = await place(shop);
    const { items } = (await repo.orderWithItems(shop.orgId, placed.id))!;
    await db.transaction().execute(async (trx) => {
      const r = repo.withTx(trx);
      const payment = await r.insertPayment({
        org_id: shop.orgId,
        order_id: placed.id,
        provider: 'manual',
        reference: 'man_1',
        currency_code: 'eur',
        amount_minor: 2740,
        captured_minor: 2740,
        status: 'captured',
      });
      expect(payment).toMatchObject({ currency_code: 'EUR', status: 'captured' });
      const held = await r.insertReservations([
        {
          org_id: shop.orgId,
          order_item_id: items[0]!.id,
          sku: 'MUG-1',
          stock_location_id: location.id,
          quantity: 2,
        },
      ]);
      expect(held).toHaveLength(1);
    });
    expect(await repo.insertReservations([])).toEqual([]);
  });

  it('reads an order with its token: the public view, amounts in major units', async () => {
    const placed = await place(shop);
    const res = await read(shop, placed.id, tokens.issue(shop.orgId, placed.id));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      id: Number(placed.id),
      display_id: placed.display_id,
      status: 'pending',
      email: 'ada@shop.example',
      currency_code: 'EUR',
      items: [
        {
          id: expect.any(Number),
          variant_id: 7,
          product_id: 3,
          title: 'Mug',
          sku: 'MUG-1',
          quantity: 2,
          unit_price: 12.5,
          subtotal: 25,
          metadata: { colour: 'blue' },
        },
      ],
      shipping_address: { first_name: 'Ada', city: 'Berlin', country_code: 'de' },
      subtotal: 25,
      shipping_total: 4.9,
      tax_total: 0,
      discount_total: 2.5,
      total: 27.4,
      payment_status: 'not_paid',
      fulfillment_status: 'not_fulfilled',
      created_at: new Date(clock.now()).toISOString(),
    });
  });

  it('answers the same 404 for a missing, wrong or other order’s token, another mode and another shop', async () => {
    const placed = await place(shop);
    const second = await place(shop);
    const live = await place(shop, { mode: 'live' });
    const right = tokens.issue(shop.orgId, placed.id);
    const unknown = await read(shop, 999_999, tokens.issue(shop.orgId, 999_999));
    expect(unknown.status).toBe(404);
    const misses = [
      await read(shop, placed.id),
      await read(shop, placed.id, 'garbage'),
      await read(shop, placed.id, right.slice(0, -2) + (right.endsWith('00') ? '11' : '00')),
      await read(shop, placed.id, tokens.issue(shop.orgId, second.id)),
      await read(shop, placed.id, tokens.issue(other.orgId, placed.id)),
      // A test-mode key never reads a live order, nor a live key a test order.
      await read(shop, live.id, tokens.issue(shop.orgId, live.id)),
      await read(shop, placed.id, right, liveKey),
      // Another shop's key, even with the right token.
      await read(other, placed.id, right),
    ];
    for (const res of misses.slice(0, 7)) expect(res.body, res.text).toEqual(unknown.body);
    expect(misses.at(-1)!.status).toBe(404);
    expect((await read(shop, live.id, tokens.issue(shop.orgId, live.id), liveKey)).status).toBe(200);
  });

  it('looks an order up by e-mail (any case) and number, with a token that opens it', async () => {
    clock.advance(61_000);
    const placed = await place(shop, { email: 'Grace@Shop.example' });
    for (const order_number of [placed.display_id, String(placed.display_id), `#${placed.display_id}`]) {
      const res = await shop.store('POST', 'orders/lookup', { email: 'grace@SHOP.example', order_number });
      expect(res.status, res.text).toBe(200);
      expect(res.body.order).toMatchObject({
        id: Number(placed.id),
        email: 'Grace@Shop.example',
        total: 27.4,
      });
      expect((await read(shop, placed.id, res.body.access_token)).status).toBe(200);
    }
    const wrongEmail = await shop.store('POST', 'orders/lookup', {
      email: 'ada@shop.example',
      order_number: placed.display_id,
    });
    expect(wrongEmail.status).toBe(404);
    expect(wrongEmail.body.detail).toBe('Order not found');
    const live = await shop.store(
      'POST',
      'orders/lookup',
      {
        email: 'grace@shop.example',
        order_number: placed.display_id,
      },
      liveKey,
    );
    expect(live.status).toBe(404);
    const bad = await shop.store('POST', 'orders/lookup', { email: 'x@y.z', order_number: 'one' });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('order_number');
  });

  it('allows 10 lookups a minute per client address, then 429 with Retry-After', async () => {
    clock.advance(61_000);
    const look = () => shop.store('POST', 'orders/lookup', { email: 'nobody@shop.example', order_number: 1 });
    for (let i = 0; i < 10; i++) expect((await look()).status).toBe(404);
    const refused = await look();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many requests for this action. Please wait and try again.',
        action: 'store.order_lookup',
        retry_after_seconds: 60,
      },
    });
    // Another shop's lookups count apart; a minute later the shop's count starts again.
    expect((await other.store('POST', 'orders/lookup', { email: 'a@b.c', order_number: 1 })).status).toBe(
      404,
    );
    clock.advance(61_000);
    expect((await look()).status).toBe(404);
  });
});
