/**
 * Billing of an organization's storefront customers over real HTTP (embedded database, or
 * PostgreSQL and Redis), cards at a local Stripe-shaped server and webhooks at a real receiver:
 * the three billing modes (a settlement under platform_mor, a wholesale invoice under
 * merchant_of_record, per product under hybrid), the customer's portal (lists, a card payment, a
 * decline that changes nothing, another customer's invoice 404), the organization's list
 * (clamped paging, counts, outstanding per currency, search, 422 filters), refunds, and
 * `invoice.paid` / `invoice.created` on the organization's webhook.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, createOrg, storefrontCustomer } from '../../../testing/org-fixture.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { startStripeServer, type StripeServer } from '../../../testing/stripe-server.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { BillingModule } from '../../billing/index.ts';
import type { WebhooksModule } from '../../webhooks/index.ts';

const DNS_PRO = { product_id: 2, pricing_id: 2 };
const at = (day: string, time = '09:00:00') => Date.parse(`${day}T${time}.000Z`);

interface Customer {
  id: number;
  token: string;
  email: string;
}

describe("billing of an organization's customers", () => {
  const clock = new ManualClock(at('2026-03-01', '12:00:00'));
  let stripe: StripeServer;
  let receiver: HttpsReceiver;
  let t: TestApp;
  let engine: WebhooksModule['engine'];
  let billing: BillingModule;
  let owner: { token: string; email: string };
  const customers: Record<string, Customer> = {};
  const stamp = Date.now().toString(36);

  const portal = (c: Customer, slug: string, path: string, init: { method?: string; body?: unknown } = {}) =>
    t.request(init.method ?? 'GET', `${ORGS}/${slug}/portal${path}`, { token: c.token, body: init.body });
  /** The organization's owner orders a priced plan for its customer: answers the customer's invoice id. */
  const orderForCustomer = async (slug: string, customer: Customer) => {
    const res = await t.request('POST', '/api/v1/services/order', {
      token: owner.token,
      body: { ...DNS_PRO, org_slug: slug, customer_id: customer.id },
    });
    expect(res.status, res.text).toBe(201);
    return { serviceId: res.body.id as number, invoiceId: res.body.invoice_id as number };
  };
  const setMode = async (slug: string, mode: string) => {
    const res = await t.request('PATCH', `${ORGS}/${slug}`, {
      token: owner.token,
      body: { billing_mode: mode },
    });
    expect(res.status, res.text).toBe(200);
  };
  const db = () =>
    tablesOf<{
      billing_settlements: Record<string, unknown>;
      billing_invoices: Record<string, unknown>;
      orgs: { slug: string; platform_fee_percent: string };
    }>(t.node.runtime);
  const events = () => receiver.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  const named = (name: string) => events().filter((e) => (e.event ?? e.type) === name);

  beforeAll(async () => {
    stripe = await startStripeServer();
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      clock,
      env: {
        ROLE: 'api',
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_API_BASE_URL: stripe.url,
        OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true',
        OUTBOUND_CA_FILE: receiver.caFile,
      },
    });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop();
    billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    owner = await t.signUp();
    for (const slug of ['mor-p', 'mor-m', 'mor-h']) {
      await createOrg(t, owner.token, slug);
      const hook = await t.request('POST', `${ORGS}/${slug}/webhooks`, {
        token: owner.token,
        body: { url: `${receiver.url}/${slug}`, events: ['invoice.paid', 'invoice.created'] },
      });
      expect(hook.status, hook.text).toBe(201);
    }
    await setMode('mor-m', 'merchant_of_record');
    await setMode('mor-h', 'hybrid');
    await sql`UPDATE orgs SET platform_fee_percent = 12.5 WHERE slug = 'mor-p'`.execute(db());
    for (const [name, slug] of [
      ['ann', 'mor-p'],
      ['ben', 'mor-p'],
      ['cid', 'mor-m'],
      ['dot', 'mor-h'],
    ] as const) {
      const email = `${name}-${stamp}@example.com`;
      customers[name] = { ...(await storefrontCustomer(t, slug, email)), email };
    }
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
    await receiver?.close();
  });

  it('platform_mor: the customer pays by card in the portal; a decline changes nothing; a settlement row; invoice.paid', async () => {
    const ann = customers.ann!;
    const { serviceId, invoiceId } = await orderForCustomer('mor-p', ann);
    const own = await portal(ann, 'mor-p', `/invoices/${invoiceId}`);
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ customer_id: ann.id, seller: 'platform', status: 'unpaid', total: 4 });
    // The owner's account list never shows a customer's invoice.
    const account = await t.request('GET', '/api/v1/billing/invoices', { token: owner.token });
    expect(account.body.map((i: { id: number }) => i.id)).not.toContain(invoiceId);

    const declined = await portal(ann, 'mor-p', `/invoices/${invoiceId}/pay`, {
      method: 'POST',
      body: { method: 'card', payment_method: 'pm_card_chargeDeclined' },
    });
    expect([declined.status, declined.body]).toEqual([402, { detail: 'Your card was declined.' }]);
    expect((await portal(ann, 'mor-p', `/invoices/${invoiceId}`)).body).toMatchObject({
      status: 'unpaid',
      amount_paid: 0,
    });
    expect((await portal(ann, 'mor-p', '/transactions')).body).toEqual([]);

    const pay = () =>
      t.request('POST', `${ORGS}/mor-p/portal/invoices/${invoiceId}/pay`, {
        token: ann.token,
        body: { method: 'card', payment_method: 'pm_card_visa' },
        headers: { 'idempotency-key': `ann-pay-${stamp}` },
      });
    const paid = await pay();
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', amount_paid: 4, customer_id: ann.id });
    expect((await pay()).body).toEqual(paid.body);
    const ledger = (await portal(ann, 'mor-p', '/transactions')).body;
    expect(ledger).toEqual([
      expect.objectContaining({ type: 'payment', amount: 4, invoice_id: invoiceId, gateway: 'stripe' }),
    ]);
    // The customer's ledger is its own: the owner's account ledger and credit are untouched.
    expect((await t.request('GET', '/api/v1/billing/transactions', { token: owner.token })).body).toEqual([]);
    expect((await portal(ann, 'mor-p', '/credit')).body).toEqual({ balance: 0, currency: 'EUR' });
    const service = await t.request('GET', `/api/v1/services/${serviceId}`, { token: owner.token });
    expect(service.body).toMatchObject({ status: 'active', customer_id: ann.id });

    const settlement = await db()
      .selectFrom('billing_settlements')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    expect({
      gross: Number(settlement.gross_minor),
      fee: Number(settlement.fee_minor),
      net: Number(settlement.net_minor),
      currency: settlement.currency,
    }).toEqual({ gross: 400, fee: 50, net: 350, currency: 'EUR' });

    await engine.runOnce();
    const [event] = named('invoice.paid');
    expect(event!.data).toEqual({
      invoice_id: invoiceId,
      invoice_number: paid.body.number,
      amount: 4,
      customer_id: ann.id,
      gateway: 'stripe',
    });
  });

  it("another customer's invoice is 404 in the portal, and another organization's in the list", async () => {
    const { invoiceId } = await orderForCustomer('mor-p', customers.ann!);
    const ben = customers.ben!;
    expect((await portal(ben, 'mor-p', `/invoices/${invoiceId}`)).status).toBe(404);
    const pay = await portal(ben, 'mor-p', `/invoices/${invoiceId}/pay`, {
      method: 'POST',
      body: { method: 'card' },
    });
    expect(pay.status).toBe(404);
    expect((await portal(ben, 'mor-p', '/invoices')).body).toEqual([]);
    // A customer's token is for its own organization's portal only.
    expect((await portal(ben, 'mor-m', '/invoices')).status).toBe(401);
    const refund = await t.request('POST', `${ORGS}/mor-m/invoices/${invoiceId}/refund`, {
      token: owner.token,
      body: {},
    });
    expect(refund.status).toBe(404);
  });

  it('merchant_of_record: the customer invoice is the organization’s; a wholesale invoice to the owner, paid from credit', async () => {
    const topUp = await t.request('POST', '/api/v1/billing/credit/top-up', {
      token: owner.token,
      body: { amount: 4, payment_method: 'pm_card_visa' },
    });
    expect(topUp.status, topUp.text).toBe(201);
    const cid = customers.cid!;
    const { serviceId, invoiceId } = await orderForCustomer('mor-m', cid);
    expect((await portal(cid, 'mor-m', `/invoices/${invoiceId}`)).body).toMatchObject({
      seller: 'organization',
      customer_id: cid.id,
      status: 'unpaid',
    });
    const account = (await t.request('GET', '/api/v1/billing/invoices', { token: owner.token })).body;
    const wholesale = account.find((i: { id: number }) => i.id !== invoiceId && i.id > invoiceId);
    expect(wholesale).toMatchObject({ seller: 'platform', customer_id: null, status: 'paid', total: 4 });
    expect((await t.request('GET', '/api/v1/billing/credit', { token: owner.token })).body.balance).toBe(0);
    // Paid by the organization: the customer's service runs.
    const service = await t.request('GET', `/api/v1/services/${serviceId}`, { token: owner.token });
    expect(service.body.status).toBe('active');
    const rows = await db().selectFrom('billing_settlements').select('invoice_id').execute();
    expect(rows.map((r) => Number(r.invoice_id))).not.toContain(invoiceId);
    await engine.runOnce();
    const paid = receiver.requests.filter(
      (r) => r.path === '/mor-m' && JSON.parse(r.body).event === 'invoice.paid',
    );
    expect(paid.map((r) => JSON.parse(r.body).data)).toEqual([
      {
        invoice_id: wholesale.id,
        invoice_number: wholesale.number,
        amount: 4,
        customer_id: null,
        gateway: 'credit',
      },
    ]);
  });

  it('hybrid: platform_mor by default, merchant_of_record for a product the organization set', async () => {
    const dot = customers.dot!;
    const first = await orderForCustomer('mor-h', dot);
    expect((await portal(dot, 'mor-h', `/invoices/${first.invoiceId}`)).body.seller).toBe('platform');
    const paid = await portal(dot, 'mor-h', `/invoices/${first.invoiceId}/pay`, {
      method: 'POST',
      body: { method: 'card', payment_method: 'pm_card_visa' },
    });
    expect(paid.status, paid.text).toBe(200);
    const put = await t.request('PUT', `${ORGS}/mor-h/billing/product-modes/2`, {
      token: owner.token,
      body: { mode: 'merchant_of_record' },
    });
    expect(put.status, put.text).toBe(200);
    expect(
      (await t.request('GET', `${ORGS}/mor-h/billing/product-modes`, { token: owner.token })).body,
    ).toEqual([expect.objectContaining({ product_id: 2, mode: 'merchant_of_record' })]);
    const bad = await t.request('PUT', `${ORGS}/mor-h/billing/product-modes/2`, {
      token: owner.token,
      body: { mode: 'hybrid' },
    });
    expect(bad.status).toBe(422);
    const second = await orderForCustomer('mor-h', dot);
    expect((await portal(dot, 'mor-h', `/invoices/${second.invoiceId}`)).body.seller).toBe('organization');
  });

  it("the organization's list: clamped paging, ties on id, counts, outstanding per currency, search, 422", async () => {
    const list = (query: string) =>
      t.request('GET', `${ORGS}/mor-p/invoices?${query}`, { token: owner.token });
    const all = await list('with_total=true');
    expect(all.status, all.text).toBe(200);
    // ann: one paid and one unpaid (4 EUR each), all made at one instant of the manual clock.
    expect(all.body).toMatchObject({ total: 2, limit: 50, offset: 0, counts: { outstanding: { EUR: 4 } } });
    expect(all.body.counts).toMatchObject({ all: 2, open: 1, unpaid: 1, paid: 1, refunded: 0 });
    const ids = all.body.items.map((i: { id: number }) => i.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const paid = await list('with_total=true&status_filter=paid');
    expect(paid.body).toMatchObject({ total: 1, counts: { all: 2, unpaid: 1, paid: 1 } });
    expect(paid.body.items).toHaveLength(1);
    for (const limit of [500, 501, 10000]) {
      const res = await list(`with_total=true&limit=${limit}`);
      expect([res.status, res.body.limit]).toEqual([200, 500]);
    }
    expect((await list('limit=0')).status).toBe(422);
    const filter = await list('status_filter=bogus');
    expect([filter.status, filter.body.error]).toEqual([422, 'invalid_status_filter']);
    const byEmail = await list(`q=${encodeURIComponent(customers.ann!.email)}`);
    expect(byEmail.body.map((i: { id: number }) => i.id)).toEqual(ids);
    const byNumber = await list(`q=${all.body.items[1].number}`);
    expect(byNumber.body.map((i: { id: number }) => i.id)).toEqual([ids[1]]);
    expect((await list('q=nobody-at-all')).body).toEqual([]);
  });

  it('clamps a list of more than 500 invoices to 500 rows, 50 by default', async () => {
    await createOrg(t, owner.token, 'mor-many');
    const many = await storefrontCustomer(t, 'mor-many', `many-${stamp}@example.com`);
    // 501 invoices written at once (ordering them one by one would take the test's time, not the rule's).
    await sql`INSERT INTO billing_invoices (number, user_id, org_id, customer_id, status, currency,
        subtotal_minor, total_minor, due_at, created_at)
      SELECT 'MANY-' || n, owner_user_id, id, ${many.id}, 'unpaid', 'EUR', 100, 100, ${new Date(clock.now())},
        ${new Date(clock.now())}
      FROM orgs, generate_series(1, 501) AS n WHERE slug = 'mor-many'`.execute(db());
    const customer = { ...many, email: '' };
    for (const [query, size] of [
      ['', 50],
      ['limit=500', 500],
      ['limit=501', 500],
      ['limit=10000', 500],
      ['limit=500&offset=500', 1],
    ] as const) {
      const org = await t.request('GET', `${ORGS}/mor-many/invoices?${query}`, { token: owner.token });
      const own = await portal(customer, 'mor-many', `/invoices?${query}`);
      expect([org.status, org.body.length, own.status, own.body.length], query).toEqual([
        200,
        size,
        200,
        size,
      ]);
    }
    const total = await t.request('GET', `${ORGS}/mor-many/invoices?with_total=true&limit=501`, {
      token: owner.token,
    });
    expect(total.body).toMatchObject({ total: 501, limit: 500, counts: { outstanding: { EUR: 501 } } });
    expect(total.body.items).toHaveLength(500);
  });

  it("the portal's lists: clamped, with_total without outstanding, type_filter 422", async () => {
    const ann = customers.ann!;
    const inv = await portal(ann, 'mor-p', '/invoices?with_total=true&limit=10000');
    expect(inv.status, inv.text).toBe(200);
    expect(inv.body).toMatchObject({ total: 2, limit: 500, counts: { all: 2, open: 1 } });
    expect(inv.body.counts.outstanding).toBeUndefined();
    const open = await portal(ann, 'mor-p', '/invoices?with_total=true&status_filter=open');
    expect(open.body).toMatchObject({ total: 1, counts: { all: 2, paid: 1 } });
    const tx = await portal(ann, 'mor-p', '/transactions?with_total=true&limit=501&type_filter=refund');
    expect(tx.body).toMatchObject({ total: 0, limit: 500, counts: { all: 1, payment: 1, refund: 0 } });
    const bad = await portal(ann, 'mor-p', '/transactions?type_filter=credit');
    expect([bad.status, bad.body.error]).toEqual([422, 'invalid_type_filter']);
    expect((await portal(ann, 'mor-p', '/invoices?limit=0')).status).toBe(422);
  });

  it('refunds a card payment in part, then the rest (refunded); never more than paid', async () => {
    const ann = customers.ann!;
    const [paidInvoice] = (await portal(ann, 'mor-p', '/invoices?status_filter=paid')).body;
    const refund = (body: unknown, token = owner.token) =>
      t.request('POST', `${ORGS}/mor-p/invoices/${paidInvoice.id}/refund`, { token, body });
    expect((await refund({ amount: 5 })).status).toBe(422);
    const part = await refund({ amount: '1.50' });
    expect(part.status, part.text).toBe(200);
    expect(part.body).toMatchObject({ status: 'paid', amount_refunded: 1.5 });
    expect((await refund({ amount: 3 })).status).toBe(422);
    const rest = await refund({});
    expect(rest.body).toMatchObject({ status: 'refunded', amount_refunded: 4, amount_paid: 4 });
    expect((await refund({})).status).toBe(409);
    const refunds = (await portal(ann, 'mor-p', '/transactions?type_filter=refund')).body;
    expect(refunds.map((r: { amount: number }) => r.amount)).toEqual([2.5, 1.5]);
    const atStripe = stripe.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/refunds' && !r.replayed,
    );
    expect(atStripe.map((r) => r.params.amount)).toEqual(['150', '250']);
  });

  it("refunds a payment from credit to the customer's credit; a plain member may not refund", async () => {
    const ben = customers.ben!;
    const { invoiceId } = await orderForCustomer('mor-p', ben);
    const short = await portal(ben, 'mor-p', `/invoices/${invoiceId}/pay`, {
      method: 'POST',
      body: { method: 'credit' },
    });
    expect([short.status, short.body]).toEqual([402, { detail: 'Insufficient credit' }]);
    // A customer has no top-up route yet: its credit comes from refunds, written here as one ledger row.
    const me = (await t.request('GET', '/api/v1/auth/me', { token: owner.token })).body as { id: number };
    await sql`INSERT INTO billing_transactions (user_id, org_id, customer_id, type, amount_minor,
        credit_delta_minor, currency, balance_after_minor, gateway, created_at)
      SELECT ${me.id}, id, ${ben.id}, 'credit_add', 1000, 1000, 'EUR', 1000, 'manual', ${new Date(clock.now())}
      FROM orgs WHERE slug = 'mor-p'`.execute(db());
    expect((await portal(ben, 'mor-p', '/credit')).body).toEqual({ balance: 10, currency: 'EUR' });
    const paid = await portal(ben, 'mor-p', `/invoices/${invoiceId}/pay`, {
      method: 'POST',
      body: { method: 'credit' },
    });
    expect(paid.status, paid.text).toBe(200);
    expect((await portal(ben, 'mor-p', '/credit')).body.balance).toBe(6);
    // The owner's account credit is its own.
    expect((await t.request('GET', '/api/v1/billing/credit', { token: owner.token })).body.balance).toBe(0);

    const member = await t.signUp();
    const added = await t.request('POST', `${ORGS}/mor-p/members`, {
      token: owner.token,
      body: { email: member.email, role: 'member' },
    });
    expect(added.status, added.text).toBe(201);
    const url = `${ORGS}/mor-p/invoices/${invoiceId}/refund`;
    expect((await t.request('POST', url, { token: member.token, body: {} })).status).toBe(403);
    const refunded = await t.request('POST', url, { token: owner.token, body: {} });
    expect(refunded.body).toMatchObject({ status: 'refunded', amount_paid: 4, amount_refunded: 4 });
    expect((await portal(ben, 'mor-p', '/credit')).body.balance).toBe(10);
    const ledger = (await portal(ben, 'mor-p', '/transactions')).body;
    expect(ledger.map((r: { type: string; balance_after: number }) => [r.type, r.balance_after])).toEqual([
      ['refund', 10],
      ['credit_deduct', 6],
      ['credit_add', 10],
    ]);
  });

  it('invoice.created after the daily run to platform_mor and hybrid organizations, never merchant_of_record', async () => {
    receiver.requests.length = 0;
    // Every active customer service renews 7 days before its due date, a month after activation.
    const day = '2026-03-25';
    clock.set(at(day));
    const result = await billing.runDay(new Date(at(day)));
    expect(result.invoiced).toBeGreaterThanOrEqual(3);
    await engine.runOnce();
    const created = receiver.requests.filter((r) => JSON.parse(r.body).event === 'invoice.created');
    // ann's and ben's plans renew at mor-p, dot's at mor-h; cid's at mor-m (merchant_of_record) is not announced.
    const counts = Object.fromEntries(created.map((r) => [r.path, JSON.parse(r.body).data]));
    const generated_at = new Date(at(day)).toISOString();
    expect(counts).toEqual({ '/mor-p': { count: 2, generated_at }, '/mor-h': { count: 1, generated_at } });
    const renewals = await db()
      .selectFrom('billing_invoices')
      .select(['org_id', 'seller', 'customer_id'])
      .where('created_at', '=', new Date(at(day)))
      .execute();
    // Renewals follow the seller rules of the day: dot's product is now sold by mor-h itself.
    expect(
      renewals
        .filter((r) => r.customer_id !== null)
        .map((r) => r.seller)
        .sort(),
    ).toEqual(['organization', 'organization', 'platform', 'platform']);
  });
});
