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

describe('Returns and refunds', () => {
  let t: TestApp;
  let stripe: StripeServer;
  let owner: string;
  let shop: Shop;
  /** Every scope returns and refunds need; `reader` only reads orders; `returner` lacks refunds. */
  let staff: string;
  let reader: string;
  let returner: string;
  const ids: Record<string, number> = {};

  const keyWith = async (scopes: string[]): Promise<string> => {
    const made = await t.request('POST', `${ORGS}/${shop.slug}/api-keys`, {
      token: owner,
      body: { label: 'returns', permissions: { scopes } },
    });
    expect(made.status, made.text).toBe(201);
    return made.body.raw_key as string;
  };
  const api = (method: string, path: string, body?: unknown, key = staff): Promise<Res> =>
    t.request(method, `${ORGS}/${shop.slug}/commerce/${path}`, {
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
  /** Fulfils `items`, ships the fulfilment and, unless told otherwise, delivers it. */
  const send = async (o: Placed, items: { item_id: number; quantity: number }[], deliver = true) => {
    const f = (await ok('POST', `orders/${o.id}/fulfillments`, { items }, 201)).id as number;
    await ok('POST', `orders/${o.id}/fulfillments/${f}/shipped`);
    if (deliver) await ok('POST', `orders/${o.id}/fulfillments/${f}/delivered`);
  };
  const tokenOf = (o: Placed) => `token=${encodeURIComponent(o.token)}`;
  const askReturn = (o: Placed, body: unknown, token = o.token) =>
    shop.store('POST', `orders/${o.id}/returns?token=${encodeURIComponent(token)}`, body);
  const shopperView = async (o: Placed) => storeOk('GET', `orders/${o.id}?${tokenOf(o)}`);
  const db = () => tablesOf<CommerceTables>(t.node.runtime);
  const level = async (sku: string) =>
    db()
      .selectFrom('commerce_inventory_levels')
      .select(['stocked_quantity', 'reserved_quantity'])
      .where('sku', '=', sku)
      .where('org_id', '=', shop.orgId)
      .executeTakeFirstOrThrow();
  const refundCount = async (o: Placed) =>
    (await db().selectFrom('commerce_refunds').select('id').where('order_id', '=', o.id).execute()).length;

  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: stripe.url },
    });
    ({ token: owner } = await t.signUp());
    shop = await setUpShop(t, owner, 'returns-a');
    staff = await keyWith([
      'commerce.fulfillment:write',
      'commerce.orders:read',
      'commerce.returns:write',
      'commerce.refunds:write',
    ]);
    reader = await keyWith(['commerce.orders:read']);
    returner = await keyWith(['commerce.returns:write']);
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
    const option = (name: string, isReturn: boolean) =>
      a('POST', 'shipping-options', {
        region_id: ids.eu,
        shipping_profile_id: ids.parcels,
        name,
        price_type: 'flat',
        amount: 4.5,
        is_return: isReturn,
      });
    ids.standard = (await option('Standard', false)).id;
    ids.returnOption = (await option('Return parcel', true)).id;
    ids.damaged = (
      await ok('POST', 'return-reasons', { value: 'damaged', label: 'Arrived damaged' }, 201)
    ).id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it('takes a return from the shopper’s request to the refund seen at Stripe', async () => {
    const order = await place(
      [
        { variant_id: ids.mug!, quantity: 3 },
        { variant_id: ids.lamp!, quantity: 1 },
      ],
      'stripe',
    );
    const mug = itemOf(order, ids.mug!);
    const lamp = itemOf(order, ids.lamp!);
    await send(order, [
      { item_id: mug, quantity: 3 },
      { item_id: lamp, quantity: 1 },
    ]);
    const totalMinor = Math.round(order.total * 100);
    const intent = stripe.intentStatuses().find((i) => i.status === 'succeeded' && i.amount === totalMinor)!;
    expect(intent).toBeDefined();

    const { return_reasons } = await storeOk('GET', 'return-reasons');
    expect(return_reasons).toEqual([expect.objectContaining({ id: ids.damaged, value: 'damaged' })]);
    const asked = await askReturn(order, {
      items: [{ item_id: mug, quantity: 2 }],
      reason_id: ids.damaged,
      note: 'Two arrived chipped',
    });
    expect(asked.status, asked.text).toBe(201);
    expect(asked.body).toMatchObject({
      order_id: order.id,
      status: 'requested',
      reason: { id: ids.damaged, value: 'damaged', label: 'Arrived damaged' },
      note: 'Two arrived chipped',
      shipping_option_id: ids.returnOption,
      requested_by: 'shopper',
      items: [{ item_id: mug, quantity: 2, received_quantity: null }],
    });
    const rid = asked.body.id as number;
    const listed = await storeOk('GET', `orders/${order.id}/returns?${tokenOf(order)}`);
    expect(listed.returns.map((r: { id: number }) => r.id)).toEqual([rid]);

    expect((await ok('POST', `returns/${rid}/approve`)).status).toBe('approved');
    const mugBefore = await level('MUG');
    const received = await ok('POST', `returns/${rid}/receive`, {
      items: [{ item_id: mug, quantity: 2 }],
      location_id: ids.warehouse,
    });
    expect(received).toMatchObject({
      status: 'received',
      location_id: ids.warehouse,
      items: [{ item_id: mug, quantity: 2, received_quantity: 2 }],
    });
    expect(await level('MUG')).toEqual({ ...mugBefore, stocked_quantity: mugBefore.stocked_quantity + 2 });

    const refunded = await ok('POST', `returns/${rid}/refund`);
    expect(refunded).toMatchObject({ status: 'refunded', refund_id: expect.any(Number) });
    // Two mugs of 12.50, tax included in the price: 25.00 back to the card.
    const atStripe = [...stripe.refunds.values()].filter((r) => r.payment_intent === intent.id);
    expect(atStripe.map((r) => r.amount)).toEqual([2500]);
    expect((await shopperView(order)).payment_status).toBe('partially_refunded');
    const { refunds } = await ok('GET', `orders/${order.id}/refunds`);
    expect(refunds).toEqual([
      expect.objectContaining({
        id: refunded.refund_id,
        return_id: rid,
        amount: 25,
        currency_code: 'EUR',
        reason: 'return',
        allocations: [
          expect.objectContaining({ provider: 'stripe', amount: 25, provider_reference: atStripe[0]!.id }),
        ],
        lines: [{ item_id: mug, quantity: 2, amount: 25 }],
      }),
    ]);
    // The rest of the order refunded: the order is refunded, and Stripe holds both refunds.
    const rest = Math.round((order.total - 25) * 100) / 100;
    const whole = await api('POST', `orders/${order.id}/refunds`, { amount: rest, reason: 'goodwill' });
    expect(whole.status, whole.text).toBe(201);
    expect((await shopperView(order)).payment_status).toBe('refunded');
    expect(
      [...stripe.refunds.values()].filter((r) => r.payment_intent === intent.id).map((r) => r.amount),
    ).toEqual([2500, totalMinor - 2500]);
    const events = JSON.stringify(await shop.admin('GET', 'events?limit=100'));
    for (const name of ['requested', 'approved', 'received', 'refunded'])
      expect(events).toContain(`commerce.return.${name}`);
    expect(events).toContain('commerce.refund.created');
    const audit = await tablesOf<{ audit_log: { org_id: number; action: string } }>(t.node.runtime)
      .selectFrom('audit_log')
      .select('action')
      .where('org_id', '=', shop.orgId)
      .where((eb) =>
        eb.or([eb('action', 'like', 'commerce.return.%'), eb('action', 'like', 'commerce.refund.%')]),
      )
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(
      [
        'commerce.refund.create',
        'commerce.return.approve',
        'commerce.return.receive',
        'commerce.return.refund',
        'commerce.return.request',
      ].sort(),
    );
  });

  it('refunds parts of an order, never more than captured minus refunded (422, nothing written)', async () => {
    const order = await place([{ variant_id: ids.lamp!, quantity: 1 }]);
    const first = await api('POST', `orders/${order.id}/refunds`, { amount: 5, note: 'late' });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ amount: 5, reason: 'refund', note: 'late', return_id: null });
    expect((await shopperView(order)).payment_status).toBe('partially_refunded');
    const over = await api('POST', `orders/${order.id}/refunds`, { amount: order.total });
    expect(over.status).toBe(422);
    expect(over.body.detail[0].loc).toEqual(['body', 'amount']);
    const decimals = await api('POST', `orders/${order.id}/refunds`, { amount: 1.234 });
    expect(decimals.status).toBe(422);
    const zero = await api('POST', `orders/${order.id}/refunds`, { amount: 0 });
    expect(zero.status).toBe(422);
    expect(await refundCount(order)).toBe(1);
    const payment = await db()
      .selectFrom('commerce_payments')
      .selectAll()
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(Number(payment.refunded_minor)).toBe(500);
    const rest = Math.round((order.total - 5) * 100) / 100;
    expect((await ok('POST', `orders/${order.id}/refunds`, { amount: rest }, 201)).amount).toBe(rest);
    expect((await shopperView(order)).payment_status).toBe('refunded');
    expect((await api('POST', `orders/${order.id}/refunds`, { amount: 0.01 })).status).toBe(422);
    expect((await api('POST', 'orders/999999/refunds', { amount: 1 })).status).toBe(404);
  });

  it('refuses quantities over what was shipped or already returned, naming the field; a wrong token is 404', async () => {
    const order = await place([{ variant_id: ids.mug!, quantity: 3 }]);
    const other = await place([{ variant_id: ids.mug!, quantity: 1 }]);
    const mug = itemOf(order, ids.mug!);
    expect((await askReturn(order, { items: [{ item_id: mug, quantity: 1 }] })).status).toBe(422);
    await send(order, [{ item_id: mug, quantity: 2 }], false);
    const over = await askReturn(order, { items: [{ item_id: mug, quantity: 3 }] });
    expect(over.status).toBe(422);
    expect(over.body.detail[0].loc).toEqual(['body', 'items', 0, 'quantity']);
    const badReason = await askReturn(order, { items: [{ item_id: mug, quantity: 1 }], reason_id: 999_999 });
    expect(badReason.body.detail[0].loc).toEqual(['body', 'reason_id']);
    const badOption = await askReturn(order, {
      items: [{ item_id: mug, quantity: 1 }],
      shipping_option_id: ids.standard,
    });
    expect(badOption.body.detail[0].loc).toEqual(['body', 'shipping_option_id']);
    const first = await askReturn(order, { items: [{ item_id: mug, quantity: 2 }] });
    expect(first.status, first.text).toBe(201);
    const again = await askReturn(order, { items: [{ item_id: mug, quantity: 1 }] });
    expect({ status: again.status, loc: again.body.detail[0].loc }).toEqual({
      status: 422,
      loc: ['body', 'items', 0, 'quantity'],
    });
    const unknown = await askReturn(order, { items: [{ item_id: itemOf(other, ids.mug!), quantity: 1 }] });
    expect(unknown.body.detail[0].loc).toEqual(['body', 'items', 0, 'item_id']);
    // A rejected return holds nothing: its units may be asked for again.
    await ok('POST', `returns/${first.body.id}/reject`, { reason: 'Outside the return window' });
    expect((await askReturn(order, { items: [{ item_id: mug, quantity: 2 }] })).status).toBe(201);

    const body = { items: [{ item_id: mug, quantity: 1 }] };
    expect((await askReturn(order, body, other.token)).status).toBe(404);
    expect((await askReturn(order, body, 'forged.token')).status).toBe(404);
    expect((await shop.store('POST', `orders/${order.id}/returns`, body)).status).toBe(404);
    expect(
      (await shop.store('GET', `orders/${order.id}/returns?token=${encodeURIComponent(other.token)}`)).status,
    ).toBe(404);
  });

  it('needs the scopes: orders:read reads, returns:write changes returns, refunds:write refunds', async () => {
    const order = await place([{ variant_id: ids.mug!, quantity: 1 }]);
    const mug = itemOf(order, ids.mug!);
    await send(order, [{ item_id: mug, quantity: 1 }]);
    const rid = (
      await ok('POST', `orders/${order.id}/returns`, { items: [{ item_id: mug, quantity: 1 }] }, 201)
    ).id as number;
    const denied = async (method: string, path: string, key: string, body?: unknown) => {
      const res = await api(method, path, body, key);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail.code).toBe('scope_required');
    };
    expect((await api('GET', `returns/${rid}`, undefined, reader)).status).toBe(200);
    expect((await api('GET', `orders/${order.id}/returns`, undefined, reader)).status).toBe(200);
    expect((await api('GET', 'return-reasons', undefined, reader)).status).toBe(200);
    await denied('POST', `returns/${rid}/approve`, reader);
    await denied('POST', 'return-reasons', reader, { value: 'size', label: 'Wrong size' });
    await denied('POST', `orders/${order.id}/refunds`, returner, { amount: 1 });
    expect((await api('POST', `returns/${rid}/approve`, undefined, returner)).status).toBe(200);
    expect((await api('POST', `returns/${rid}/receive`, undefined, returner)).status).toBe(200);
    await denied('POST', `returns/${rid}/refund`, returner);
    expect((await api('POST', `returns/${rid}/refund`)).status).toBe(200);
  });

  it('refuses steps from the wrong state (409) and runs the others', async () => {
    const order = await place([{ variant_id: ids.mug!, quantity: 3 }]);
    const mug = itemOf(order, ids.mug!);
    await send(order, [{ item_id: mug, quantity: 3 }]);
    const ask = async () =>
      (await ok('POST', `orders/${order.id}/returns`, { items: [{ item_id: mug, quantity: 1 }] }, 201))
        .id as number;
    const refused = async (path: string, state: string, body?: unknown) => {
      const res = await api('POST', path, body);
      expect(res.status, `${path}: ${res.text}`).toBe(409);
      expect(res.body.detail).toContain(state);
    };
    const a = await ask();
    await refused(`returns/${a}/receive`, 'requested');
    await refused(`returns/${a}/refund`, 'requested');
    await ok('POST', `returns/${a}/approve`);
    await refused(`returns/${a}/approve`, 'approved');
    await refused(`returns/${a}/refund`, 'approved');
    expect((await api('POST', `returns/${a}/reject`, {})).status).toBe(422);
    await ok('POST', `returns/${a}/receive`, { items: [{ item_id: mug, quantity: 1 }] });
    await refused(`returns/${a}/cancel`, 'received');
    await refused(`returns/${a}/reject`, 'received', { reason: 'late' });
    const b = await ask();
    await ok('POST', `returns/${b}/approve`);
    expect((await ok('POST', `returns/${b}/cancel`)).status).toBe('canceled');
    await refused(`returns/${b}/approve`, 'canceled');
    const c = await ask();
    expect(await ok('POST', `returns/${c}/reject`, { reason: 'Used' })).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Used',
    });
    const overReceive = await api(
      'POST',
      `returns/${(await ok('POST', `returns/${await ask()}/approve`)).id}/receive`,
      {
        items: [{ item_id: mug, quantity: 2 }],
      },
    );
    expect(overReceive.body.detail[0].loc).toEqual(['body', 'items', 0, 'quantity']);
    expect((await api('POST', 'returns/999999/approve')).status).toBe(404);
    const { returns, count } = await ok('GET', `returns?order_id=${order.id}`);
    expect(count).toBe(4);
    expect(returns.map((r: { status: string }) => r.status)).toEqual([
      'approved',
      'rejected',
      'canceled',
      'received',
    ]);
    // A reason returns name stays.
    const used = await ok('POST', 'return-reasons', { value: 'size', label: 'Wrong size' }, 201);
    await ok(
      'POST',
      `orders/${order.id}/returns`,
      { items: [{ item_id: mug, quantity: 1 }], reason_id: used.id },
      201,
    );
    expect((await api('DELETE', `return-reasons/${used.id}`)).status).toBe(409);
    expect((await api('POST', 'return-reasons', { value: 'size', label: 'Again' })).status).toBe(409);
    expect((await ok('PATCH', `return-reasons/${used.id}`, { label: 'Too small' })).label).toBe('Too small');
  });

  it('cancels an order through the refund core: the cancel’s refund is recorded', async () => {
    const order = await place([{ variant_id: ids.lamp!, quantity: 1 }], 'stripe');
    await ok('POST', `orders/${order.id}/refunds`, { amount: 10 }, 201);
    const canceled = await ok('POST', `orders/${order.id}/cancel`);
    const left = Math.round((order.total - 10) * 100) / 100;
    expect(canceled).toMatchObject({ status: 'canceled', payment_status: 'refunded', refunded: left });
    const { refunds } = await ok('GET', `orders/${order.id}/refunds`);
    expect(refunds.map((r: { reason: string; amount: number }) => [r.reason, r.amount])).toEqual([
      ['refund', 10],
      ['cancel', left],
    ]);
    const totalMinor = Math.round(order.total * 100);
    const intent = stripe
      .intentStatuses()
      .find((i) => i.amount === totalMinor && i.amountReceived === totalMinor)!;
    expect(
      [...stripe.refunds.values()].filter((r) => r.payment_intent === intent.id).map((r) => r.amount),
    ).toEqual([1000, totalMinor - 1000]);
  });

  it('allocates a refund over provider payments first, then gift card payments (no provider call)', async () => {
    const order = await place([{ variant_id: ids.mug!, quantity: 1 }]);
    const now = new Date();
    const card = await db()
      .insertInto('commerce_payments')
      .values({
        org_id: shop.orgId,
        order_id: order.id,
        provider: 'gift_card',
        reference: 'gift_card:1',
        currency_code: 'EUR',
        amount_minor: 500,
        captured_minor: 500,
        refunded_minor: 0,
        status: 'captured',
        created_at: now,
        updated_at: now,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const amount = Math.round((order.total + 3) * 100) / 100;
    const refund = await ok('POST', `orders/${order.id}/refunds`, { amount }, 201);
    expect(refund.allocations).toEqual([
      expect.objectContaining({
        provider: 'manual',
        amount: order.total,
        provider_reference: expect.any(String),
      }),
      { payment_id: Number(card.id), provider: 'gift_card', amount: 3, provider_reference: null },
    ]);
    expect((await shopperView(order)).payment_status).toBe('partially_refunded');
    const rows = await db()
      .selectFrom('commerce_payments')
      .select(['provider', 'status', 'refunded_minor'])
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.provider, r.status, Number(r.refunded_minor)])).toEqual([
      ['manual', 'refunded', Math.round(order.total * 100)],
      ['gift_card', 'captured', 300],
    ]);
  });
});
