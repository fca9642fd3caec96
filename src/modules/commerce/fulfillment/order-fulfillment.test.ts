import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ORGS } from '../../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startStripeServer, type StripeServer } from '../../../testing/stripe-server.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts';
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

interface Placed {
  id: number;
  token: string;
  items: { id: number; variant_id: number; quantity: number }[];
  total: number;
}

describe('Order fulfilment and cancel', () => {
  let t: TestApp;
  let stripe: StripeServer;
  let owner: string;
  let shop: Shop;
  let other: Shop;
  /** Organization keys: `staff` fulfils, reads orders and cancels; `otherStaff` the same in another shop. */
  let staff: string;
  let otherStaff: string;
  const ids: Record<string, number> = {};

  const keyWith = async (s: Shop, scopes: string[]): Promise<string> => {
    const made = await t.request('POST', `${ORGS}/${s.slug}/api-keys`, {
      token: owner,
      body: { label: 'fulfilment', permissions: { scopes } },
    });
    expect(made.status, made.text).toBe(201);
    return made.body.raw_key as string;
  };
  const api = (method: string, path: string, body?: unknown, key = staff, slug = shop.slug): Promise<Res> =>
    t.request(method, `${ORGS}/${slug}/commerce/${path}`, {
      headers: { 'x-api-key': key },
      ...(body !== undefined ? { body } : {}),
    });
  const ok = async (method: string, path: string, body?: unknown, status = 200) => {
    const res = await api(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body;
  };
  const storeOk = async (method: string, path: string, body?: unknown, status = 200) => {
    const res = await shop.store(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body;
  };
  /** An order placed through the Store API: a cart of `lines`, paid with `provider`. */
  const place = async (
    lines: { variant_id: number; quantity: number }[],
    provider: 'manual' | 'stripe' = 'manual',
  ): Promise<Placed> => {
    const { cart } = await storeOk(
      'POST',
      'carts',
      { country_code: 'fr', email: 'ann@shop.example', items: lines },
      201,
    );
    await storeOk('PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
    await storeOk('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    await storeOk('POST', `carts/${cart.id}/payment-sessions`, {
      provider,
      ...(provider === 'stripe' ? { payment_method: 'pm_card_visa' } : {}),
    });
    const { order, access_token } = await storeOk('POST', `carts/${cart.id}/complete`, {});
    return { id: order.id, token: access_token, items: order.items, total: order.total };
  };
  const itemOf = (o: Placed, variant: number): number => o.items.find((i) => i.variant_id === variant)!.id;
  /** The order as its shopper sees it (statuses). */
  const shopperView = async (o: Placed) =>
    storeOk('GET', `orders/${o.id}?token=${encodeURIComponent(o.token)}`);
  const fulfillmentStatus = async (o: Placed): Promise<string> =>
    (await shopperView(o)).fulfillment_status as string;
  const level = async (sku: string) =>
    tablesOf<CommerceTables>(t.node.runtime)
      .selectFrom('commerce_inventory_levels')
      .select(['stocked_quantity', 'reserved_quantity'])
      .where('sku', '=', sku)
      .where('org_id', '=', shop.orgId)
      .executeTakeFirstOrThrow();
  const fulfil = (o: Placed, items: { item_id: number; quantity: number }[], extra = {}) =>
    api('POST', `orders/${o.id}/fulfillments`, { items, ...extra });
  const step = (o: Placed, fid: number, name: string, body?: unknown) =>
    api('POST', `orders/${o.id}/fulfillments/${fid}/${name}`, body);

  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: stripe.url },
    });
    ({ token: owner } = await t.signUp());
    shop = await setUpShop(t, owner, 'fulfil-a');
    other = await setUpShop(t, owner, 'fulfil-b');
    const scopes = ['commerce.fulfillment:write', 'commerce.orders:read', 'commerce.refunds:write'];
    staff = await keyWith(shop, scopes);
    otherStaff = await keyWith(other, scopes);
    const a = shop.admin;
    ids.eu = (
      await a('POST', 'regions', {
        name: 'Europe',
        currency_code: 'EUR',
        countries: ['FR'],
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
    ids.warehouse = (
      await a('POST', 'stock-locations', { name: 'Warehouse', sales_channel_ids: [shop.salesChannelId] })
    ).id;
    await a(
      'POST',
      'inventory/batch',
      {
        levels: [
          { sku: 'MUG', stock_location_id: ids.warehouse, stocked_quantity: 100 },
          { sku: 'LAMP', stock_location_id: ids.warehouse, stocked_quantity: 10 },
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
  });

  it('fulfils part of an order, then the rest; ships, delivers; stock and fulfillment_status follow', async () => {
    const order = await place([
      { variant_id: ids.mug!, quantity: 3 },
      { variant_id: ids.lamp!, quantity: 1 },
    ]);
    const mug = itemOf(order, ids.mug!);
    const lamp = itemOf(order, ids.lamp!);
    expect(await fulfillmentStatus(order)).toBe('not_fulfilled');
    const mugBefore = await level('MUG');
    const lampBefore = await level('LAMP');

    const first = await fulfil(order, [{ item_id: mug, quantity: 2 }], { location_id: ids.warehouse });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({
      order_id: order.id,
      status: 'created',
      location_id: ids.warehouse,
      items: [{ item_id: mug, quantity: 2 }],
      tracking_number: null,
      tracking_url: null,
      dispatched_at: null,
      shipped_at: null,
      delivered_at: null,
      canceled_at: null,
    });
    const f1 = first.body.id as number;
    expect(await fulfillmentStatus(order)).toBe('partially_fulfilled');

    // Two mugs are taken: a second fulfilment of two is over what is left, naming the item.
    const over = await fulfil(order, [{ item_id: mug, quantity: 2 }]);
    expect(over.status).toBe(422);
    expect(over.body.detail[0].loc).toEqual(['body', 'items', 0, 'quantity']);
    expect(over.body.detail[0].msg).toContain(`Item ${mug}`);
    const unknown = await fulfil(order, [{ item_id: 999_999, quantity: 1 }]);
    expect({ status: unknown.status, loc: unknown.body.detail[0].loc }).toEqual({
      status: 422,
      loc: ['body', 'items', 0, 'item_id'],
    });
    const badLocation = await fulfil(order, [{ item_id: mug, quantity: 1 }], { location_id: 999_999 });
    expect(badLocation.body.detail[0].loc).toEqual(['body', 'location_id']);

    const second = await fulfil(order, [
      { item_id: mug, quantity: 1 },
      { item_id: lamp, quantity: 1 },
    ]);
    expect(second.status, second.text).toBe(201);
    const f2 = second.body.id as number;
    expect(await fulfillmentStatus(order)).toBe('fulfilled');

    // The state machine: delivered before shipped, dispatched twice, canceled once shipped.
    const early = await step(order, f1, 'delivered');
    expect(early.status).toBe(409);
    expect(early.body.detail).toContain('created');
    const dispatched = await ok('POST', `orders/${order.id}/fulfillments/${f1}/dispatched`);
    expect(dispatched.status).toBe('dispatched');
    expect(dispatched.dispatched_at).toEqual(expect.any(String));
    const twice = await step(order, f1, 'dispatched');
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toContain('dispatched');

    const badUrl = await step(order, f1, 'shipped', { tracking_url: 'ftp://carrier.example/1' });
    expect({ status: badUrl.status, loc: badUrl.body.detail[0].loc }).toEqual({
      status: 422,
      loc: ['body', 'tracking_url'],
    });
    const shipped = await ok('POST', `orders/${order.id}/fulfillments/${f1}/shipped`, {
      tracking_number: 'TRK-1',
      tracking_url: 'https://carrier.example/track/TRK-1',
    });
    expect(shipped).toMatchObject({
      status: 'shipped',
      tracking_number: 'TRK-1',
      tracking_url: 'https://carrier.example/track/TRK-1',
    });
    // The two shipped mugs leave the shelf and their reservation.
    expect(await level('MUG')).toEqual({
      stocked_quantity: mugBefore.stocked_quantity - 2,
      reserved_quantity: mugBefore.reserved_quantity - 2,
    });
    expect(await level('LAMP')).toEqual(lampBefore);
    expect(await fulfillmentStatus(order)).toBe('partially_shipped');
    const lateCancel = await step(order, f1, 'cancel');
    expect(lateCancel.status).toBe(409);
    expect(lateCancel.body.detail).toContain('shipped');

    // Canceling the second fulfilment frees its units for another.
    expect((await ok('POST', `orders/${order.id}/fulfillments/${f2}/cancel`)).status).toBe('canceled');
    expect(await fulfillmentStatus(order)).toBe('partially_shipped');
    expect((await step(order, f2, 'shipped')).status).toBe(409);
    const third = await fulfil(order, [
      { item_id: mug, quantity: 1 },
      { item_id: lamp, quantity: 1 },
    ]);
    expect(third.status, third.text).toBe(201);
    const f3 = third.body.id as number;
    const shippedThird = await step(order, f3, 'shipped');
    expect(shippedThird.status, shippedThird.text).toBe(200);
    expect(shippedThird.body.tracking_number).toBeNull();
    expect(await fulfillmentStatus(order)).toBe('shipped');
    expect(await level('MUG')).toEqual({
      stocked_quantity: mugBefore.stocked_quantity - 3,
      reserved_quantity: mugBefore.reserved_quantity - 3,
    });
    expect(await level('LAMP')).toEqual({
      stocked_quantity: lampBefore.stocked_quantity - 1,
      reserved_quantity: lampBefore.reserved_quantity - 1,
    });

    await ok('POST', `orders/${order.id}/fulfillments/${f1}/delivered`);
    expect(await fulfillmentStatus(order)).toBe('partially_delivered');
    const delivered = await ok('POST', `orders/${order.id}/fulfillments/${f3}/delivered`);
    expect(delivered.delivered_at).toEqual(expect.any(String));
    expect(await fulfillmentStatus(order)).toBe('delivered');

    const { fulfillments } = await ok('GET', `orders/${order.id}/fulfillments`);
    expect(fulfillments.map((f: { id: number; status: string }) => [f.id, f.status])).toEqual([
      [f1, 'delivered'],
      [f2, 'canceled'],
      [f3, 'delivered'],
    ]);
    // An order with fulfilments cannot be canceled.
    const cancel = await api('POST', `orders/${order.id}/cancel`);
    expect(cancel.status).toBe(409);
    const events = JSON.stringify(await shop.admin('GET', 'events?limit=100'));
    for (const verb of ['created', 'dispatched', 'shipped', 'delivered', 'canceled'])
      expect(events).toContain(`commerce.fulfillment.${verb}`);
  });

  it('needs the fulfilment scope; another organization’s order or fulfilment is not found', async () => {
    const order = await place([{ variant_id: ids.mug!, quantity: 1 }]);
    const items = [{ item_id: itemOf(order, ids.mug!), quantity: 1 }];
    const noScope = await api('POST', `orders/${order.id}/fulfillments`, { items }, shop.orgKey);
    expect(noScope.status).toBe(403);
    expect(noScope.body.detail.code).toBe('scope_required');
    expect((await api('POST', `orders/${order.id}/cancel`, undefined, shop.orgKey)).status).toBe(403);
    const elsewhere = await api('POST', `orders/${order.id}/fulfillments`, { items }, otherStaff, other.slug);
    expect(elsewhere.status).toBe(404);
    expect(
      (await api('GET', `orders/${order.id}/fulfillments`, undefined, otherStaff, other.slug)).status,
    ).toBe(404);
    expect((await api('POST', `orders/${order.id}/cancel`, undefined, otherStaff, other.slug)).status).toBe(
      404,
    );
    const f = (await fulfil(order, items)).body.id as number;
    const another = await place([{ variant_id: ids.mug!, quantity: 1 }]);
    expect((await step(another, f, 'dispatched')).status).toBe(404);
    expect((await step(order, f, 'dispatched', undefined)).status).toBe(200);
  });

  it('cancels an order before fulfilment: stock released, the manual payment refunded, once', async () => {
    const order = await place([{ variant_id: ids.mug!, quantity: 2 }]);
    const before = await level('MUG');
    const canceled = await ok('POST', `orders/${order.id}/cancel`);
    expect(canceled).toMatchObject({
      id: order.id,
      status: 'canceled',
      payment_status: 'refunded',
      fulfillment_status: 'canceled',
      currency_code: 'EUR',
      refunded: order.total,
    });
    expect(await level('MUG')).toEqual({
      stocked_quantity: before.stocked_quantity,
      reserved_quantity: before.reserved_quantity - 2,
    });
    expect(await shopperView(order)).toMatchObject({
      status: 'canceled',
      payment_status: 'refunded',
      fulfillment_status: 'canceled',
    });
    const db = tablesOf<CommerceTables>(t.node.runtime);
    const payment = await db
      .selectFrom('commerce_payments')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect({ status: payment.status, refunded: Number(payment.refunded_minor) }).toEqual({
      status: 'refunded',
      refunded: Number(payment.captured_minor),
    });
    const reservations = await db
      .selectFrom('commerce_inventory_reservations')
      .select('id')
      .where('order_item_id', '=', itemOf(order, ids.mug!))
      .execute();
    expect(reservations).toEqual([]);
    const again = await api('POST', `orders/${order.id}/cancel`);
    expect(again.status).toBe(409);
    const fulfilCanceled = await fulfil(order, [{ item_id: itemOf(order, ids.mug!), quantity: 1 }]);
    expect(fulfilCanceled.status).toBe(409);
    expect(JSON.stringify(await shop.admin('GET', 'events?limit=100'))).toContain('commerce.order.canceled');
  });

  it('cancels an order paid with Stripe: the captured intent is refunded in full', async () => {
    const order = await place([{ variant_id: ids.lamp!, quantity: 1 }], 'stripe');
    const totalMinor = Math.round(order.total * 100);
    const intent = stripe.intentStatuses().find((i) => i.status === 'succeeded' && i.amount === totalMinor);
    expect(intent?.amountReceived).toBe(totalMinor);
    const lampBefore = await level('LAMP');
    const canceled = await ok('POST', `orders/${order.id}/cancel`);
    expect(canceled).toMatchObject({ payment_status: 'refunded', refunded: order.total });
    const refunds = [...stripe.refunds.values()].filter((r) => r.payment_intent === intent!.id);
    expect(refunds.map((r) => r.amount)).toEqual([totalMinor]);
    expect((await level('LAMP')).reserved_quantity).toBe(lampBefore.reserved_quantity - 1);
    expect((await api('POST', `orders/${order.id}/cancel`)).status).toBe(409);
  });

  it('refuses to cancel an order with a fulfilment until that fulfilment is canceled', async () => {
    const order = await place([{ variant_id: ids.mug!, quantity: 1 }]);
    const f = (await fulfil(order, [{ item_id: itemOf(order, ids.mug!), quantity: 1 }])).body.id as number;
    const refused = await api('POST', `orders/${order.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('fulfillments');
    expect((await shopperView(order)).status).toBe('pending');
    await ok('POST', `orders/${order.id}/fulfillments/${f}/cancel`);
    expect(await fulfillmentStatus(order)).toBe('not_fulfilled');
    expect((await ok('POST', `orders/${order.id}/cancel`)).status).toBe('canceled');
  });

  it('runs concurrent changes of one order one after another: the last units fulfilled once, one cancel', async () => {
    const order = await place([{ variant_id: ids.mug!, quantity: 2 }]);
    const items = [{ item_id: itemOf(order, ids.mug!), quantity: 2 }];
    const both = await Promise.all([fulfil(order, items), fulfil(order, items)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 422]);
    const f = both.find((r) => r.status === 201)!.body.id as number;
    await ok('POST', `orders/${order.id}/fulfillments/${f}/cancel`);
    const cancels = await Promise.all([
      api('POST', `orders/${order.id}/cancel`),
      api('POST', `orders/${order.id}/cancel`),
    ]);
    expect(cancels.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
