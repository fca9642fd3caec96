import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxTables } from '../../../kernel/events/outbox.ts';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS } from '../../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startStripeServer, type StripeServer } from '../../../testing/stripe-server.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts';
import type { CommerceTables } from '../commerce-tables.ts';

type Res = TestResponse<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DAY = 86_400_000;
const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Rue X',
  city: 'Paris',
  postal_code: '75001',
  country_code: 'FR',
};
const PROFILE = {
  business_type: 'company',
  legal_name: 'Acme SAS',
  address: { line1: '1 Rue X', city: 'Paris', postal_code: '75001', country: 'FR' },
  representative: { first_name: 'Ann', last_name: 'Lee', date_of_birth: '1980-02-29' },
  owners: [{ first_name: 'Ann', last_name: 'Lee', date_of_birth: '1980-02-29', ownership_percent: 60 }],
};

describe('The shop’s money: ledger, balance, disputes, payouts, merchant profile', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 10, 9));
  let t: TestApp;
  let stripe: StripeServer;
  let owner: { token: string; email: string };
  let shop: Shop;
  /** Keys: `finance` reads money and answers disputes; `all` holds every commerce scope; `reader` reads only. */
  let finance: string;
  let all: string;
  let reader: string;
  let hook: string;
  const ids: Record<string, number> = {};
  const db = () => tablesOf<CommerceTables>(t.node.runtime);

  const keyWith = async (scopes: string[]): Promise<string> => {
    const made = await t.request('POST', `${ORGS}/${shop.slug}/api-keys`, {
      token: owner.token,
      body: { label: 'money', permissions: { scopes } },
    });
    expect(made.status, made.text).toBe(201);
    return made.body.raw_key as string;
  };
  const api = (method: string, path: string, body?: unknown, key: string | null = finance): Promise<Res> =>
    t.request(method, `${ORGS}/${shop.slug}/commerce/${path}`, {
      ...(key === null ? { token: owner.token } : { headers: { 'x-api-key': key } }),
      ...(body !== undefined ? { body } : {}),
    });
  const ok = async (
    method: string,
    path: string,
    body?: unknown,
    key: string | null = finance,
    status = 200,
  ) => {
    const res = await api(method, path, body, key);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body;
  };
  const storeOk = async (method: string, path: string, body?: unknown, status = 200) => {
    const res = await shop.store(method, path, body);
    expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
    return res.body;
  };
  /** An order of one mug (12.50 + 4.50 shipping = 17.00 EUR, 20 % tax included), paid with `provider`. */
  const place = async (provider: 'manual' | 'stripe'): Promise<{ id: number; reference: string }> => {
    const { cart } = await storeOk(
      'POST',
      'carts',
      { country_code: 'fr', email: 'ann@shop.example', items: [{ variant_id: ids.mug, quantity: 1 }] },
      201,
    );
    await storeOk('PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
    await storeOk('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    await storeOk('POST', `carts/${cart.id}/payment-sessions`, {
      provider,
      ...(provider === 'stripe' ? { payment_method: 'pm_card_visa' } : {}),
    });
    const { order } = await storeOk('POST', `carts/${cart.id}/complete`, {});
    const payment = await db()
      .selectFrom('commerce_payments')
      .select('reference')
      .where('order_id', '=', order.id)
      .executeTakeFirstOrThrow();
    return { id: order.id as number, reference: payment.reference };
  };
  const dispute = (reference: string, type = 'charge.dispute.created', object?: Record<string, unknown>) =>
    stripe.sendEvent(hook, type, object ?? stripe.createDispute(reference));
  const ledgerRows = async () => {
    const entries = await db()
      .selectFrom('commerce_ledger_entries as e')
      .innerJoin('commerce_ledger_transactions as t', 't.id', 'e.transaction_id')
      .select([
        'e.transaction_id',
        't.type',
        'e.account',
        'e.amount_minor',
        'e.available_on',
        'e.currency_code',
      ])
      .where('e.org_id', '=', shop.orgId)
      .execute();
    return entries.map((e) => ({ ...e, amount: Number(e.amount_minor) }));
  };
  const countOf = async (type: string) =>
    (await ledgerRows()).filter((e) => e.type === type && e.amount > 0).length;
  const heldNow = async () => ((await ok('GET', 'balance')).held as { amount: number }[])[0]?.amount ?? 0;

  beforeAll(async () => {
    stripe = await startStripeServer({ now: () => clock.now() });
    t = await startTestApp({
      clock,
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_API_BASE_URL: stripe.url,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      },
    });
    hook = `${t.url}/api/v1/payments/stripe/webhook`;
    owner = await t.signUp();
    shop = await setUpShop(t, owner.token, 'money-a');
    // A 10 % platform fee (platform_mor, the default mode); read by the shop within a minute.
    await sql`UPDATE orgs SET platform_fee_percent = 10 WHERE id = ${shop.orgId}`.execute(db());
    clock.advance(61_000);
    finance = await keyWith(['commerce.finance:read', 'commerce.disputes:write', 'commerce.refunds:write']);
    all = await keyWith(['commerce:*']);
    reader = await keyWith(['commerce.finance:read']);
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
    ids.mug = (
      await a('POST', 'products', {
        title: 'Mug',
        status: 'published',
        sales_channel_ids: [shop.salesChannelId],
        shipping_profile_id: ids.parcels,
        variants: [{ title: 'One', sku: 'MUG', prices: [{ currency_code: 'EUR', amount: 12.5 }] }],
      })
    ).variants[0].id;
    ids.warehouse = (
      await a('POST', 'stock-locations', { name: 'Warehouse', sales_channel_ids: [shop.salesChannelId] })
    ).id;
    await a(
      'POST',
      'inventory/batch',
      { levels: [{ sku: 'MUG', stock_location_id: ids.warehouse, stocked_quantity: 100 }] },
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

  it('keeps a ledger whose sums are the balance after a mixed day: captures, fees, a cancel, a dispute, a payout', async () => {
    await place('manual');
    await place('stripe');
    const disputed = await place('stripe');
    const canceled = await place('manual');
    await ok('POST', `orders/${canceled.id}/cancel`);
    expect((await dispute(disputed.reference)).status).toBe(200);

    // 4 × 17.00 captured less 4 × 1.70 fee, pending for 7 days; the refund (17.00, its fee back) and
    // the hold (17.00) come out of what is available.
    expect(await ok('GET', 'balance')).toEqual({
      available: [{ currency: 'EUR', amount: -32.3 }],
      pending: [{ currency: 'EUR', amount: 61.2 }],
      held: [{ currency: 'EUR', amount: 17 }],
    });
    const payout = { amount: 20, currency_code: 'EUR' };
    expect((await api('POST', 'payouts', payout, null)).status).toBe(422);

    clock.advance(8 * DAY);
    owner.token = await t.signIn(owner.email);
    expect(await ok('GET', 'balance')).toMatchObject({
      available: [{ currency: 'EUR', amount: 28.9 }],
      pending: [{ currency: 'EUR', amount: 0 }],
    });
    for (const key of [all, finance]) {
      const refused = await api('POST', 'payouts', payout, key);
      expect(refused.status).toBe(403);
      expect(refused.body.detail.code).toBe('people_only');
    }
    const paid = await ok('POST', 'payouts', payout, null, 201);
    expect(paid).toMatchObject({ amount: 20, currency_code: 'EUR', status: 'pending' });
    const over = await api('POST', 'payouts', { amount: 9, currency_code: 'eur' }, null);
    expect(over.status).toBe(422);
    expect(over.body.detail[0].loc).toEqual(['body', 'amount']);
    expect((await ok('GET', 'payouts')).payouts).toHaveLength(1);

    // The outbox holds payout.created for the organization's webhooks.
    const outbox = await tablesOf<OutboxTables>(t.node.runtime)
      .selectFrom('events')
      .select(['name', 'payload'])
      .where('org_id', '=', shop.orgId)
      .where('name', 'in', ['payout.created', 'commerce.payout.created'])
      .execute();
    expect(outbox.map((e) => e.name).sort()).toEqual(['commerce.payout.created', 'payout.created']);
    expect(JSON.stringify(outbox[0]!.payload)).toContain(`"payout_id":${paid.id}`);
    expect(JSON.stringify(outbox[0]!.payload)).toContain('period_start');

    // Every transaction sums to zero; the accounts' sums are the balance.
    const rows = await ledgerRows();
    const byTx = new Map<number, number>();
    for (const r of rows)
      byTx.set(Number(r.transaction_id), (byTx.get(Number(r.transaction_id)) ?? 0) + r.amount);
    expect([...byTx.values()].every((s) => s === 0)).toBe(true);
    expect(new Set(rows.map((r) => r.type))).toEqual(
      new Set(['capture', 'fee', 'refund', 'fee_refund', 'dispute_hold', 'payout']),
    );
    const sum = (account: string) =>
      rows.filter((r) => r.account === account).reduce((a, r) => a + r.amount, 0);
    const balance = await ok('GET', 'balance');
    expect((sum('available') + sum('pending')) / 100).toBe(balance.available[0].amount);
    expect(sum('held') / 100).toBe(balance.held[0].amount);
    expect(sum('fees')).toBe(3 * 170);
    expect(sum('payouts')).toBe(2000);
    expect(
      sum('customer') + sum('available') + sum('pending') + sum('held') + sum('fees') + sum('payouts'),
    ).toBe(0);

    // The ledger pages newest first.
    const first = await ok('GET', 'ledger?limit=2');
    expect(first.transactions).toHaveLength(2);
    expect(first.transactions[0].type).toBe('payout');
    expect(first.transactions[0].entries).toEqual([
      { account: 'available', amount: -20, available_on: null },
      { account: 'payouts', amount: 20, available_on: null },
    ]);
    const next = await ok('GET', `ledger?limit=200&before_id=${first.next_before_id}`);
    expect(next.transactions.length + 2).toBe(byTx.size);
    expect(next.next_before_id).toBeNull();
  });

  it('reports a month’s taxable sales and tax per country, less refunds', async () => {
    const month = new Date(clock.now() - 8 * DAY).toISOString().slice(0, 7);
    const report = await ok('GET', `tax-report?month=${month}`, undefined, reader);
    expect(report.month).toBe(month);
    // 4 orders of 17.00 with 2.83 tax each (2.08 + 0.75); the canceled one's all refunded.
    expect(report.countries).toEqual([
      {
        country_code: 'FR',
        currency_code: 'EUR',
        orders: 4,
        taxable_sales: 56.68,
        tax_collected: 11.32,
        refunded_sales: 14.17,
        refunded_tax: 2.83,
        net_taxable_sales: 42.51,
        net_tax: 8.49,
      },
    ]);
    expect((await api('GET', 'tax-report?month=2026-13', undefined, reader)).status).toBe(422);
  });

  it('holds a disputed amount, saves evidence, submits it once, and returns the hold when won', async () => {
    const order = await place('stripe');
    const created = stripe.createDispute(order.reference, { amount: 1000, reason: 'product_not_received' });
    const heldBefore = await heldNow();
    const first = await stripe.sendEvent(hook, 'charge.dispute.created', created);
    expect(first.status, first.body).toBe(200);
    // The same event again (Stripe retries) changes nothing.
    expect(
      (await stripe.sendEvent(hook, 'charge.dispute.created', created, { eventId: first.eventId })).status,
    ).toBe(200);
    expect(await heldNow()).toBe(heldBefore + 10);
    const listed = (await ok('GET', 'disputes')).disputes as { id: number; order_id: number }[];
    const d = listed.find((x) => x.order_id === order.id)!;
    expect(await ok('GET', `disputes/${d.id}`)).toMatchObject({
      amount: 10,
      currency_code: 'EUR',
      status: 'needs_response',
      reason: 'product_not_received',
      provider_dispute_id: created.id,
      submitted_at: null,
    });

    expect((await api('POST', `disputes/${d.id}/submit`, undefined, reader)).status).toBe(403);
    await ok('POST', `disputes/${d.id}/evidence`, { shipping_carrier: 'La Poste' });
    const saved = await ok('POST', `disputes/${d.id}/evidence`, { shipping_tracking_number: 'LP123' });
    expect(saved.evidence).toEqual({ shipping_carrier: 'La Poste', shipping_tracking_number: 'LP123' });
    expect((await api('POST', `disputes/${d.id}/evidence`, { nope: 'x' })).status).toBe(422);
    const sent = await ok('POST', `disputes/${d.id}/submit`);
    expect(sent.status).toBe('under_review');
    expect(stripe.disputes.get(created.id as string)).toMatchObject({
      status: 'under_review',
      evidence: { shipping_carrier: 'La Poste', shipping_tracking_number: 'LP123' },
      evidence_details: { submission_count: 1 },
    });
    const again = await api('POST', `disputes/${d.id}/submit`);
    expect({ status: again.status, code: again.headers.get('x-error-code') }).toEqual({
      status: 409,
      code: 'commerce.dispute_already_submitted',
    });
    expect((await api('POST', `disputes/${d.id}/evidence`, { customer_name: 'Ann' })).status).toBe(409);

    const won = stripe.closeDispute(created.id as string, 'won');
    expect((await stripe.sendEvent(hook, 'charge.dispute.closed', won)).status).toBe(200);
    expect(await ok('GET', `disputes/${d.id}`)).toMatchObject({ status: 'won' });
    expect(await heldNow()).toBe(heldBefore);
    expect(await countOf('dispute_won')).toBe(1);
  });

  it('loses a disputed amount when the bank decides so, or when the merchant accepts it (once)', async () => {
    const lost = await place('stripe');
    const object = stripe.createDispute(lost.reference);
    await stripe.sendEvent(hook, 'charge.dispute.created', object);
    const heldBefore = await heldNow();
    await stripe.sendEvent(hook, 'charge.dispute.closed', stripe.closeDispute(object.id as string, 'lost'));
    expect(await heldNow()).toBeCloseTo(heldBefore - 17, 2);

    const accepted = await place('stripe');
    const second = stripe.createDispute(accepted.reference);
    await stripe.sendEvent(hook, 'charge.dispute.created', second);
    const d = ((await ok('GET', 'disputes')).disputes as { id: number; order_id: number }[]).find(
      (x) => x.order_id === accepted.id,
    )!;
    expect(await ok('POST', `disputes/${d.id}/accept`)).toMatchObject({ status: 'lost' });
    expect(stripe.disputes.get(second.id as string)!.status).toBe('lost');
    expect((await api('POST', `disputes/${d.id}/accept`)).status).toBe(409);
    // Stripe then reports it closed: nothing is lost twice.
    await stripe.sendEvent(hook, 'charge.dispute.closed', stripe.disputes.get(second.id as string)!);
    expect(await countOf('dispute_lost')).toBe(2);
    expect(await heldNow()).toBeCloseTo(heldBefore - 17, 2);
  });

  it('refuses forged and stale signatures with 400 and records nothing', async () => {
    const order = await place('stripe');
    const object = stripe.createDispute(order.reference);
    const before = await db().selectFrom('commerce_provider_events').select('event_id').execute();
    const forged = await stripe.sendEvent(hook, 'charge.dispute.created', object, { secret: 'whsec_forged' });
    const stale = await stripe.sendEvent(hook, 'charge.dispute.created', object, {
      timestampS: Math.floor(clock.now() / 1000) - 301,
    });
    const unsigned = await t.request('POST', '/api/v1/payments/stripe/webhook', { body: { id: 'evt_x' } });
    for (const res of [forged, stale, unsigned]) expect(res.status).toBe(400);
    expect(JSON.parse(forged.body).detail).toContain('Stripe-Signature');
    const disputes = await db()
      .selectFrom('commerce_disputes')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(disputes).toEqual([]);
    expect(await db().selectFrom('commerce_provider_events').select('event_id').execute()).toHaveLength(
      before.length,
    );
  });

  it('keeps the merchant profile to owners and admins signed in: every key is refused with people_only', async () => {
    for (const method of ['GET', 'PUT']) {
      const res = await api(method, 'merchant-profile', method === 'PUT' ? PROFILE : undefined, all);
      expect(res.status).toBe(403);
      expect(res.body.detail.code).toBe('people_only');
    }
    expect(await ok('GET', 'merchant-profile', undefined, null)).toEqual({
      org_id: shop.orgId,
      profile: null,
    });
    const saved = await ok('PUT', 'merchant-profile', PROFILE, null);
    expect(saved.profile).toMatchObject({ ...PROFILE, updated_at: new Date(clock.now()).toISOString() });
    expect((await ok('GET', 'merchant-profile', undefined, null)).profile).toMatchObject(PROFILE);
    const bad = await api(
      'PUT',
      'merchant-profile',
      { ...PROFILE, representative: { ...PROFILE.representative, date_of_birth: '1981-02-29' } },
      null,
    );
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'representative', 'date_of_birth']);
    // The event says the profile changed, never who the owners are.
    const events = await ok('GET', 'events', undefined, all);
    const changed = (events.events as { name: string; data: unknown }[]).find(
      (e) => e.name === 'commerce.merchant_profile.updated',
    );
    expect(changed?.data).toEqual({ org_id: shop.orgId });
  });
});
