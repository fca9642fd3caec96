import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ORGS } from '../../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { startStripeServer, type StripeServer } from '../../../testing/stripe-server.ts';
import { startTestApp, type TestApp, type TestResponse } from '../../../testing/test-app.ts';
import type { CommerceTables } from '../commerce-tables.ts';

type Res = TestResponse<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ADDRESS = { first_name: 'Ann', address_1: '1 Rue X', city: 'Paris', country_code: 'FR' };
const CODE = /\b[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\b/g;
const UNUSABLE = { detail: 'No gift card with this code can be used on this cart' };

describe('Gift cards: issued, applied, spent at completion, restored by a refund, bought as a product', () => {
  let t: TestApp;
  let stripe: StripeServer;
  let owner: string;
  let shop: Shop;
  let staff: string;
  let reader: string;
  const ids: Record<string, number> = {};
  let ipCount = 0;
  /** Each test's shopper from an address of its own (the address limit counts per address). */
  const nextIp = (): string => `198.51.100.${++ipCount}`;

  const api = (method: string, p: string, body?: unknown, key = staff): Promise<Res> =>
    t.request(method, `${ORGS}/${shop.slug}/commerce/${p}`, {
      headers: { 'x-api-key': key },
      ...(body !== undefined ? { body } : {}),
    });
  const admin = async (method: string, p: string, body?: unknown, status?: number) => {
    const res = await api(method, p, body);
    expect(res.status, `${method} ${p}: ${res.text}`).toBe(status ?? (method === 'POST' ? 201 : 200));
    return res.body;
  };
  const issue = (value: number, extra: Record<string, unknown> = {}) =>
    admin('POST', 'gift-cards', { value, currency_code: 'eur', ...extra });
  const store = (method: string, p: string, body?: unknown, ip?: string): Promise<Res> =>
    t.request(method, `${ORGS}/${shop.slug}/store/${p}`, {
      headers: { 'x-publishable-api-key': shop.publishableKey, ...(ip ? { 'x-forwarded-for': ip } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
  const ok = async (method: string, p: string, body?: unknown, ip?: string) => {
    const res = await store(method, p, body, ip);
    expect(res.status, `${method} ${p}: ${res.text}`).toBe(p === 'carts' ? 201 : 200);
    return res.body;
  };
  /** A cart of two mugs with standard shipping: 29.50 EUR. */
  const readyCart = async (): Promise<number> => {
    const { cart } = await ok('POST', 'carts', {
      country_code: 'fr',
      email: 'ann@shop.example',
      items: [{ variant_id: ids.mug, quantity: 2 }],
    });
    await ok('PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
    await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    return cart.id as number;
  };
  const apply = (cartId: number, code: string, ip = nextIp()) =>
    store('POST', `carts/${cartId}/gift-cards`, { code }, ip);
  const db = () => tablesOf<CommerceTables>(t.node.runtime);
  const paymentsOf = (orderId: number) =>
    db()
      .selectFrom('commerce_payments')
      .select(['provider', 'reference', 'captured_minor', 'status'])
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: stripe.url, TRUST_PROXY: 'true' },
    });
    ({ token: owner } = await t.signUp());
    shop = await setUpShop(t, owner, 'gift-a');
    const keyWith = async (scopes: string[]): Promise<string> => {
      const made = await t.request('POST', `${ORGS}/${shop.slug}/api-keys`, {
        token: owner,
        body: { label: 'gift cards', permissions: { scopes } },
      });
      expect(made.status, made.text).toBe(201);
      return made.body.raw_key as string;
    };
    staff = await keyWith([
      'commerce.promotions:write',
      'commerce.customers:read',
      'commerce.refunds:write',
      'commerce.orders:read',
      'commerce.finance:read',
    ]);
    reader = await keyWith(['commerce.customers:read']);
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
        variants: [
          { title: 'One', manage_inventory: false, prices: [{ currency_code: 'EUR', amount: 12.5 }] },
        ],
      })
    ).variants[0].id;
    const card = await a('POST', 'products', {
      title: 'Gift card',
      status: 'published',
      is_gift_card: true,
      sales_channel_ids: [shop.salesChannelId],
      variants: [
        { title: '25 EUR', manage_inventory: false, prices: [{ currency_code: 'EUR', amount: 25 }] },
      ],
    });
    expect(card.is_gift_card).toBe(true);
    ids.giftProduct = card.id;
    ids.giftVariant = card.variants[0].id;
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

  it('issues a card whose code is answered once; the list and the read show its last four only', async () => {
    const issued = await issue(40, { note: 'Apology', expires_at: '2030-01-01T00:00:00Z' });
    expect(issued).toMatchObject({
      value: 40,
      balance: 40,
      currency_code: 'EUR',
      status: 'active',
      is_expired: false,
      expires_at: '2030-01-01T00:00:00.000Z',
      note: 'Apology',
      order_id: null,
    });
    expect(issued.code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(issued.code.replace(/-/g, '').slice(-4)).toBe(issued.code_last4);
    const row = await db()
      .selectFrom('commerce_gift_cards')
      .selectAll()
      .where('id', '=', issued.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(issued.code.replace(/-/g, ''));
    const bare = issued.code.replace(/-/g, '');
    const listed = await api('GET', 'gift-cards', undefined, reader);
    expect(listed.status).toBe(200);
    expect(listed.body.gift_cards[0]).toEqual({
      id: issued.id,
      code_last4: issued.code_last4,
      balance: '40.00',
      currency: 'EUR',
      status: 'active',
      created_at: expect.any(String),
    });
    const read = await api('GET', `gift-cards/${issued.id}`, undefined, reader);
    expect(read.status).toBe(200);
    expect(read.body.transactions).toEqual([
      expect.objectContaining({ kind: 'issued', amount: 40, balance_after: 40 }),
    ]);
    for (const text of [listed.text, read.text]) {
      expect(text).not.toContain(issued.code);
      expect(text).not.toContain(bare);
      expect(text).not.toContain('code_hash');
    }
    // Issuing is the promotions' write scope: reading is not enough.
    expect(
      (await api('POST', 'gift-cards', { value: 5, currency_code: 'EUR' }, reader)).body.detail.code,
    ).toBe('scope_required');
    expect((await api('GET', 'gift-cards/999999', undefined, reader)).status).toBe(404);
  });

  it('adjusts up and down as transactions, never below 0; disables and expires', async () => {
    const { id } = await issue(10);
    expect((await admin('POST', `gift-cards/${id}/adjust`, { amount: 5.5 }, 200)).balance).toBe(15.5);
    expect((await admin('POST', `gift-cards/${id}/adjust`, { amount: -15 }, 200)).balance).toBe(0.5);
    const below = await api('POST', `gift-cards/${id}/adjust`, { amount: -1 });
    expect({ status: below.status, loc: below.body.detail?.[0]?.loc }).toEqual({
      status: 422,
      loc: ['body', 'amount'],
    });
    const cents = await api('POST', `gift-cards/${id}/adjust`, { amount: 0.001 });
    expect(cents.status).toBe(422);
    const read = await admin('GET', `gift-cards/${id}`);
    expect(read.transactions.map((x: { kind: string; amount: number }) => [x.kind, x.amount])).toEqual([
      ['issued', 10],
      ['adjusted', 5.5],
      ['adjusted', -15],
    ]);
    const disabled = await admin('PATCH', `gift-cards/${id}`, { status: 'disabled' });
    expect(disabled.status).toBe('disabled');
    const expired = await admin('PATCH', `gift-cards/${id}`, {
      status: 'active',
      expires_at: '2001-01-01T00:00:00Z',
    });
    expect(expired).toMatchObject({ status: 'active', is_expired: true });
    const events = JSON.stringify(await shop.admin('GET', 'events?limit=200'));
    for (const name of [
      'commerce.gift_card.created',
      'commerce.gift_card.updated',
      'commerce.gift_card.adjusted',
    ])
      expect(events).toContain(name);
  });

  it('applies a code to a cart (any case, spaces); wrong, disabled, expired, empty, other currency: one 404', async () => {
    const cartId = await readyCart();
    const card = await issue(10);
    const typed = ` ${card.code.toLowerCase().replace(/-/g, ' ')} `;
    const applied = await apply(cartId, typed);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.cart).toMatchObject({
      total: 29.5,
      gift_cards: [{ id: card.id, code_last4: card.code_last4, amount: 10 }],
      gift_card_total: 10,
    });
    const wrong = await apply(cartId, 'AAAA-BBBB-CCCC-DDDD');
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual(UNUSABLE);
    const expired = await issue(5, { expires_at: '2001-01-01T00:00:00Z' });
    const disabled = await issue(5);
    await admin('PATCH', `gift-cards/${disabled.id}`, { status: 'disabled' });
    const empty = await issue(5);
    await admin('POST', `gift-cards/${empty.id}/adjust`, { amount: -5 }, 200);
    const dollars = await admin('POST', 'gift-cards', { value: 5, currency_code: 'USD' });
    for (const c of [expired, disabled, empty, dollars]) {
      const refused = await apply(cartId, c.code);
      expect(refused.status, c.code).toBe(404);
      expect(refused.body).toEqual(wrong.body);
    }
    const removed = await store('DELETE', `carts/${cartId}/gift-cards/${card.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.cart).toMatchObject({ gift_cards: [], gift_card_total: 0 });
    expect((await store('DELETE', `carts/${cartId}/gift-cards/${card.id}`)).status).toBe(404);
  });

  it('limits attempts: the 11th of a cart in 10 minutes, and the 11th of an address, answer 429', async () => {
    const cartId = await readyCart();
    for (let i = 0; i < 10; i++) expect((await apply(cartId, `WRONG-${i}`)).status).toBe(404);
    const refused = await apply(cartId, 'WRONG-10');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('600');
    expect(refused.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many gift card attempts for this cart. Try again in a few minutes.',
        retry_after_seconds: 600,
      },
    });
    // Even a good code waits now.
    expect((await apply(cartId, (await issue(1)).code)).status).toBe(429);
    // One address over several carts: 10, then 429 on a fresh cart.
    const ip = nextIp();
    const carts = [await readyCart(), await readyCart(), await readyCart()];
    for (let i = 0; i < 10; i++) expect((await apply(carts[i % 2]!, `WRONG-${i}`, ip)).status).toBe(404);
    const byAddress = await apply(carts[2]!, 'WRONG-X', ip);
    expect(byAddress.status).toBe(429);
    expect(byAddress.headers.get('retry-after')).toBe('600');
    expect(byAddress.body.detail.message).toBe(
      'Too many gift card attempts for this cart. Try again in a few minutes.',
    );
    // Another address is not counted with it.
    expect((await apply(carts[2]!, 'WRONG-Y', nextIp())).status).toBe(404);
  });

  it('pays part at completion, the rest by Stripe; a cancel gives the card its part back', async () => {
    const cartId = await readyCart();
    const card = await issue(10);
    expect((await apply(cartId, card.code)).status).toBe(200);
    const session = (
      await store(
        'POST',
        `carts/${cartId}/payment-sessions`,
        { provider: 'stripe', payment_method: 'pm_card_visa' },
        nextIp(),
      )
    ).body.payment_session;
    expect(session).toMatchObject({ status: 'authorized', amount: 19.5 });
    const done = await store('POST', `carts/${cartId}/complete`, {}, nextIp());
    expect(done.status, done.text).toBe(200);
    const order = done.body.order;
    expect(order).toMatchObject({ total: 29.5, payment_status: 'captured' });
    expect(await paymentsOf(order.id)).toEqual([
      {
        provider: 'stripe',
        reference: expect.any(String),
        captured_minor: expect.anything(),
        status: 'captured',
      },
      {
        provider: 'gift_card',
        reference: `gift_card:${card.id}`,
        captured_minor: expect.anything(),
        status: 'captured',
      },
    ]);
    const payments = await paymentsOf(order.id);
    expect(payments.map((p) => Number(p.captured_minor))).toEqual([1950, 1000]);
    expect(stripe.paymentIntents.get(payments[0]!.reference)).toMatchObject({ amount: 1950 });
    expect((await admin('GET', `gift-cards/${card.id}`)).balance).toBe(0);

    const canceled = await admin('POST', `orders/${order.id}/cancel`, undefined, 200);
    expect(canceled).toMatchObject({ status: 'canceled', refunded: 29.5 });
    const back = await admin('GET', `gift-cards/${card.id}`);
    expect(back.balance).toBe(10);
    expect(back.transactions.map((x: { kind: string; amount: number }) => [x.kind, x.amount])).toEqual([
      ['issued', 10],
      ['spent', -10],
      ['restored', 10],
    ]);
    expect(back.transactions[2].refund_id).toEqual(expect.any(Number));
  });

  it('refunds part of an order through the card first, then the gift card; credit note and ledger follow', async () => {
    const cartId = await readyCart();
    const card = await issue(10);
    expect((await apply(cartId, card.code)).status).toBe(200);
    await store('POST', `carts/${cartId}/payment-sessions`, {
      provider: 'stripe',
      payment_method: 'pm_card_visa',
    });
    const done = await store('POST', `carts/${cartId}/complete`, {}, nextIp());
    expect(done.status, done.text).toBe(200);
    const orderId = done.body.order.id as number;
    const [paid] = await paymentsOf(orderId);

    const refund = await api('POST', `orders/${orderId}/refunds`, { amount: 25, reason: 'damaged' });
    expect(refund.status, refund.text).toBe(201);
    // 19.50 back to the card at Stripe, the other 5.50 to the gift card; 4.50 left to refund.
    const atStripe = [...stripe.refunds.values()].filter((r) => r.payment_intent === paid!.reference);
    expect(atStripe.map((r) => r.amount)).toEqual([1950]);
    expect((await admin('GET', `gift-cards/${card.id}`)).balance).toBe(5.5);
    const order = await admin('GET', `orders/${orderId}`);
    expect(order.payment_status).toBe('partially_refunded');
    const notes = order.documents.filter((d: { type: string }) => d.type === 'credit_note');
    expect(notes).toHaveLength(1);
    expect(notes[0].totals.total).toBe(25);
    const too = await api('POST', `orders/${orderId}/refunds`, { amount: 4.51 });
    expect(too.status).toBe(422);
    // The ledger gives back only what went back through the provider: the gift card is the shop's.
    const ledger = await admin('GET', 'ledger?limit=200');
    const refunds = ledger.transactions.filter(
      (x: { type: string; order_id: number }) => x.type === 'refund' && x.order_id === orderId,
    );
    expect(refunds).toHaveLength(1);
    expect(refunds[0].entries).toEqual(
      expect.arrayContaining([expect.objectContaining({ account: 'customer', amount: 19.5 })]),
    );
  });

  it('refuses a payment session made stale by a balance change, like a changed total', async () => {
    const cartId = await readyCart();
    const card = await issue(10);
    await apply(cartId, card.code);
    const ip = nextIp();
    const session = (await store('POST', `carts/${cartId}/payment-sessions`, { provider: 'manual' }, ip))
      .body;
    expect(session.payment_session.amount).toBe(19.5);
    await admin('POST', `gift-cards/${card.id}/adjust`, { amount: -4 }, 200);
    const stale = await store('POST', `carts/${cartId}/complete`, {}, ip);
    expect(stale.status).toBe(409);
    expect(stale.body.detail.error).toBe('payment_not_authorized');
    expect((await admin('GET', `gift-cards/${card.id}`)).balance).toBe(6);
    const again = (await store('POST', `carts/${cartId}/payment-sessions`, { provider: 'manual' }, ip)).body;
    expect(again.payment_session.amount).toBe(23.5);
    const done = await store('POST', `carts/${cartId}/complete`, {}, ip);
    expect(done.status, done.text).toBe(200);
    const payments = await paymentsOf(done.body.order.id);
    expect(payments.map((p) => [p.provider, Number(p.captured_minor)])).toEqual([
      ['manual', 2350],
      ['gift_card', 600],
    ]);
  });

  it('covers a whole cart: no payment provider, the order paid; a cancel restores the card', async () => {
    const cartId = await readyCart();
    const card = await issue(50);
    const cart = (await apply(cartId, card.code)).body.cart;
    expect(cart).toMatchObject({ total: 29.5, gift_card_total: 29.5 });
    const providers = await ok('GET', `carts/${cartId}/payment-providers`);
    expect(providers.payment_required).toBe(false);
    expect((await store('POST', `carts/${cartId}/payment-sessions`, { provider: 'manual' })).status).toBe(
      409,
    );
    const done = await store('POST', `carts/${cartId}/complete`, {}, nextIp());
    expect(done.status, done.text).toBe(200);
    expect(done.body.order).toMatchObject({ total: 29.5, payment_status: 'captured' });
    const payments = await paymentsOf(done.body.order.id);
    expect(payments.map((p) => [p.provider, p.reference, Number(p.captured_minor)])).toEqual([
      ['gift_card', `gift_card:${card.id}`, 2950],
    ]);
    expect((await admin('GET', `gift-cards/${card.id}`)).balance).toBe(20.5);
    await admin('POST', `orders/${done.body.order.id}/cancel`, undefined, 200);
    expect((await admin('GET', `gift-cards/${card.id}`)).balance).toBe(50);
  });

  it('spends a card once when two carts holding it complete at the same time', async () => {
    const card = await issue(20);
    const carts = [await readyCart(), await readyCart()];
    const ips = [nextIp(), nextIp()];
    for (const [i, cartId] of carts.entries()) {
      expect((await apply(cartId, card.code)).status).toBe(200);
      const session = await store('POST', `carts/${cartId}/payment-sessions`, { provider: 'manual' }, ips[i]);
      expect(session.body.payment_session.amount).toBe(9.5);
    }
    const answers = await Promise.all(
      carts.map((cartId, i) => store('POST', `carts/${cartId}/complete`, {}, ips[i])),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const read = await admin('GET', `gift-cards/${card.id}`);
    expect(read.balance).toBe(0);
    expect(read.transactions.filter((x: { kind: string }) => x.kind === 'spent')).toHaveLength(1);
  });

  it('releases a payment started before gift cards came to pay the whole cart', async () => {
    const cartId = await readyCart();
    const ip = nextIp();
    const session = (
      await store(
        'POST',
        `carts/${cartId}/payment-sessions`,
        { provider: 'stripe', payment_method: 'pm_card_visa' },
        ip,
      )
    ).body.payment_session;
    expect(session.status).toBe('authorized');
    const [intent] =
      [...stripe.paymentIntents.entries()].find(
        ([, v]) => v.amount === 2950 && v.status === 'requires_capture',
      ) ?? [];
    expect(intent).toBeDefined();
    expect((await apply(cartId, (await issue(30)).code)).body.cart.gift_card_total).toBe(29.5);
    const done = await store('POST', `carts/${cartId}/complete`, {}, ip);
    expect(done.status, done.text).toBe(200);
    expect((await paymentsOf(done.body.order.id)).map((p) => p.provider)).toEqual(['gift_card']);
    expect(stripe.paymentIntents.get(intent!)).toMatchObject({ status: 'canceled' });
  });

  it('issues the gift cards an order buys, mails their codes, and never shows them on the order', async () => {
    const mailDir = path.join(t.node.runtime.config.dataDir, 'mail');
    const mailsBefore = mails(mailDir).length;
    const { cart } = await ok('POST', 'carts', {
      country_code: 'fr',
      email: 'buyer@shop.example',
      items: [{ variant_id: ids.giftVariant, quantity: 2 }],
    });
    const ip = nextIp();
    const session = (await store('POST', `carts/${cart.id}/payment-sessions`, { provider: 'manual' }, ip))
      .body;
    expect(session.payment_session.amount).toBe(50);
    const done = await store('POST', `carts/${cart.id}/complete`, {}, ip);
    expect(done.status, done.text).toBe(200);
    const order = done.body.order;
    const bought = await db()
      .selectFrom('commerce_gift_cards')
      .selectAll()
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(bought.map((c) => [Number(c.balance_minor), c.currency, c.status])).toEqual([
      [2500, 'EUR', 'active'],
      [2500, 'EUR', 'active'],
    ]);
    const sent = mails(mailDir).slice(mailsBefore);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('To: buyer@shop.example');
    expect(sent[0]).toContain('Subject: Your gift card');
    const codes = [...new Set(sent[0]!.match(CODE) ?? [])];
    expect(codes).toHaveLength(2);
    expect(codes.map((c) => c.slice(-4)).sort()).toEqual(bought.map((c) => c.code_last4).sort());
    // The order, read by the shopper and by the shop, carries no code.
    const token = encodeURIComponent(done.body.access_token);
    const views = [
      (await store('GET', `orders/${order.id}?token=${token}`)).text,
      (await api('GET', `orders/${order.id}`, undefined, shop.orgKey)).text,
      done.text,
    ];
    for (const text of views) for (const code of codes) expect(text).not.toContain(code);
    // The mailed code pays.
    const next = await readyCart();
    const applied = await apply(next, codes[0]!);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.cart.gift_card_total).toBe(25);
  });
});

/** The messages the mail port wrote (no SMTP_URL in tests), oldest first. */
function mails(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml'));
  } catch {
    return [];
  }
  return names.sort().map((n) => readFileSync(path.join(dir, n), 'utf8'));
}
