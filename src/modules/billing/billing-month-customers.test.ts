/**
 * A simulated stretch of billing for organizations' storefront customers that must not drift
 * (embedded database, or PostgreSQL and Redis): over 36 days on a ManualClock, with repeatable
 * randomness, one `platform_mor` and one `merchant_of_record` organization, two customers each.
 * Customers order priced plans in the portal and pay by card at a local Stripe-shaped server (some
 * declined) or from their own credit; the daily run makes renewals; the organizations refund paid
 * invoices in part or in full; the owner tops up credit that pays the wholesale invoices. Then,
 * read from the database: each customer's ledger runs without a gap and is what its portal
 * answers, never counted in the owner's balance; each invoice received and gave back what its
 * ledger rows say; every paid platform_mor invoice has one settlement, every merchant_of_record
 * one a wholesale invoice; and what Stripe holds matches the ledger.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { ORGS, PASSWORD, createOrg, storefrontCustomer } from '../../testing/org-fixture.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { startStripeServer, type StripeServer } from '../../testing/stripe-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { BillingModule } from './billing-module.ts';
import type { BillingTables } from './billing-tables.ts';

const B = '/api/v1/billing';
const PLANS = [
  { product_id: 2, pricing_id: 2 },
  { product_id: 4, pricing_id: 5 },
];
const DAY = 24 * 3600_000;
const FIRST_DAY = Date.parse('2026-04-01T00:00:00.000Z');
const DAYS = 36;
const SLUGS = { p: 'sim-p', m: 'sim-m' } as const;
const FEE_PERCENT = '12.5';
/** A customer's credit at the start: there is no customer top-up route, so one ledger row each. */
const START_CREDIT = 1500;

interface Customer {
  name: string;
  slug: string;
  id: number;
  email: string;
  token: string;
}
interface InvoiceItem {
  id: number;
  customer_id: number | null;
  amount_paid: number;
  amount_refunded: number;
}

describe("a simulated stretch of billing for organizations' customers", () => {
  const clock = new ManualClock(FIRST_DAY + 8 * 3600_000);
  const random = createSeededRandom(2026_04);
  let stripe: StripeServer;
  let t: TestApp;
  let billing: BillingModule;
  let owner: { token: string; email: string; id: number };
  const orgIds = {} as Record<string, number>;
  const customers: Customer[] = [];
  const done = {
    orders: 0,
    paidByCard: 0,
    paidByCredit: 0,
    declined: 0,
    refundsInPart: 0,
    refundsInFull: 0,
    ownerTopUps: 0,
    wholesalePaidByOwner: 0,
  };

  const db = () => tablesOf<BillingTables>(t.node.runtime);
  const asOwner = (method: string, path: string, body?: unknown) =>
    t.request(method, path, { token: owner.token, ...(body === undefined ? {} : { body }) });
  const portal = (c: Customer, method: string, path: string, body?: unknown) =>
    t.request(method, `${ORGS}/${c.slug}/portal${path}`, {
      token: c.token,
      ...(body === undefined ? {} : { body }),
    });
  const signInCustomer = async (c: Customer) => {
    const login = await t.request('POST', `${ORGS}/${c.slug}/auth/login`, {
      body: { email: c.email, password: PASSWORD },
    });
    expect(login.status, login.text).toBe(200);
    c.token = login.body.access_token as string;
  };

  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({
      env: { ROLE: 'api', STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: stripe.url },
      clock,
    });
    billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    const account = await t.signUp();
    owner = { ...account, id: 0 };
    owner.id = (await asOwner('GET', '/api/v1/auth/me')).body.id as number;
    for (const slug of Object.values(SLUGS)) orgIds[slug] = (await createOrg(t, owner.token, slug)).id;
    const mode = await asOwner('PATCH', `${ORGS}/${SLUGS.m}`, { billing_mode: 'merchant_of_record' });
    expect([mode.status, mode.body.billing_mode], mode.text).toEqual([200, 'merchant_of_record']);
    // The platform's fee is an operator's setting of the organization (no route sets it).
    await sql`UPDATE orgs SET platform_fee_percent = ${FEE_PERCENT} WHERE slug = ${SLUGS.p}`.execute(db());
    const stamp = Date.now().toString(36);
    for (const [name, slug] of [
      ['ann', SLUGS.p],
      ['ben', SLUGS.p],
      ['cid', SLUGS.m],
      ['dot', SLUGS.m],
    ] as const) {
      const email = `${name}-${stamp}@example.com`;
      const made = await storefrontCustomer(t, slug, email);
      customers.push({ name, slug, id: made.id, email, token: made.token });
      await sql`INSERT INTO billing_transactions (user_id, org_id, customer_id, type, amount_minor,
          credit_delta_minor, currency, balance_after_minor, gateway, created_at)
        VALUES (${owner.id}, ${orgIds[slug]!}, ${made.id}, 'credit_add', ${START_CREDIT}, ${START_CREDIT},
          'EUR', ${START_CREDIT}, 'manual', ${new Date(clock.now())})`.execute(db());
    }
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  const order = async (c: Customer) => {
    const res = await portal(c, 'POST', '/services/order', random.pick(PLANS));
    expect(res.status, res.text).toBe(201);
    expect(res.body.invoice_id).toEqual(expect.any(Number));
    done.orders++;
  };
  const pay = async (c: Customer) => {
    const open = (await portal(c, 'GET', '/invoices?status_filter=open&limit=500')).body as InvoiceItem[];
    if (open.length === 0) return;
    const body = random.pick([
      { method: 'card', payment_method: 'pm_card_visa' },
      { method: 'card', payment_method: 'pm_card_visa' },
      { method: 'card', payment_method: 'pm_card_chargeDeclined' },
      { method: 'credit' },
    ]);
    const res = await portal(c, 'POST', `/invoices/${random.pick(open).id}/pay`, body);
    expect([200, 402], res.text).toContain(res.status);
    if (res.status === 402 && body.method === 'card') done.declined++;
    if (res.status === 200) done[body.method === 'card' ? 'paidByCard' : 'paidByCredit']++;
  };
  /** The organization refunds one of its customers' paid invoices: a random part or all of what is left. */
  const refund = async (slug: string) => {
    const list = (await asOwner('GET', `${ORGS}/${slug}/invoices?status_filter=paid&limit=500`)).body;
    const paid = (list as InvoiceItem[]).filter((i) => i.customer_id !== null);
    if (paid.length === 0) return;
    const invoice = random.pick(paid);
    const left = Math.round((invoice.amount_paid - invoice.amount_refunded) * 100);
    const part = random.int(3) === 0 ? null : 1 + random.int(left);
    const body = part === null ? {} : { amount: (part / 100).toFixed(2) };
    const res = await asOwner('POST', `${ORGS}/${slug}/invoices/${invoice.id}/refund`, body);
    expect(res.status, res.text).toBe(200);
    const refunded = invoice.amount_refunded + (part ?? left) / 100;
    expect(res.body.amount_refunded).toBeCloseTo(refunded, 2);
    done[part === null || part === left ? 'refundsInFull' : 'refundsInPart']++;
  };
  /** The owner tops up by card, then pays the open wholesale invoices its credit covers. */
  const ownerTopUp = async () => {
    const top = await asOwner('POST', `${B}/credit/top-up`, {
      amount: ((200 + random.int(1000)) / 100).toFixed(2),
      payment_method: 'pm_card_visa',
    });
    expect(top.status, top.text).toBe(201);
    done.ownerTopUps++;
    const open = (await asOwner('GET', `${B}/invoices?status_filter=open&limit=200`)).body as {
      id: number;
    }[];
    for (const inv of open) {
      const res = await asOwner('POST', `${B}/invoices/${inv.id}/pay`, { method: 'credit' });
      expect([200, 402], res.text).toContain(res.status);
      if (res.status === 200) done.wholesalePaidByOwner++;
    }
  };
  const act = async () => {
    const r = random.int(20);
    const c = random.pick(customers);
    if (r < 4) await order(c);
    else if (r < 12) await pay(c);
    else if (r < 18) await refund(random.pick(Object.values(SLUGS)));
    else await ownerTopUp();
  };

  it('runs 36 days of portal orders, card and credit payments, renewals, refunds and top-ups', async () => {
    await ownerTopUp();
    for (const c of customers) await order(c);
    for (let day = 0; day < DAYS; day++) {
      clock.set(FIRST_DAY + day * DAY + 8 * 3600_000 + random.int(3600_000));
      owner.token = await t.signIn(owner.email);
      for (const c of customers) await signInCustomer(c);
      const result = await billing.runDay(new Date(clock.now()));
      expect(result.ran).toBe(true);
      for (let i = 0; i < 6; i++) {
        clock.advance(30_000 + random.int(60_000));
        await act();
      }
    }
    expect(done.orders).toBeGreaterThan(8);
    expect(done.paidByCard).toBeGreaterThan(3);
    expect(done.paidByCredit).toBeGreaterThan(0);
    expect(done.declined).toBeGreaterThan(0);
    expect(done.refundsInPart).toBeGreaterThan(0);
    expect(done.refundsInFull).toBeGreaterThan(0);
    const renewals = await db().selectFrom('billing_renewals').selectAll().execute();
    expect(renewals.length).toBeGreaterThanOrEqual(4);
    console.info('customers month', { days: DAYS, renewals: renewals.length, ...done });
  }, 300_000);

  it("each customer's ledger runs without a gap, is what its portal answers, never the owner's credit", async () => {
    const ledger = await db().selectFrom('billing_transactions').selectAll().orderBy('id').execute();
    for (const c of customers) {
      const rows = ledger.filter((r) => r.customer_id !== null && Number(r.customer_id) === c.id);
      expect(rows.length, c.name).toBeGreaterThan(1);
      let running = 0;
      for (const r of rows) {
        running += Number(r.credit_delta_minor);
        expect(Number(r.balance_after_minor), `${c.name} row ${r.id}`).toBe(running);
        expect([Number(r.user_id), Number(r.org_id)], `${c.name} row ${r.id}`).toEqual([
          owner.id,
          orgIds[c.slug],
        ]);
      }
      const answered = await portal(c, 'GET', '/credit');
      expect(answered.status, answered.text).toBe(200);
      expect(Math.round((answered.body.balance as number) * 100), c.name).toBe(running);
    }
    const own = ledger.filter((r) => Number(r.user_id) === owner.id && r.customer_id === null);
    const ownSum = own.reduce((s, r) => s + Number(r.credit_delta_minor), 0);
    let running = 0;
    for (const r of own) {
      running += Number(r.credit_delta_minor);
      expect(Number(r.balance_after_minor), `owner row ${r.id}`).toBe(running);
    }
    const credit = (await asOwner('GET', `${B}/credit`)).body.balance as number;
    expect(Math.round(credit * 100)).toBe(ownSum);
    // The customers' rows are the owner's user_id too: counting them would change the answer.
    const customerSum = ledger
      .filter((r) => r.customer_id !== null)
      .reduce((s, r) => s + Number(r.credit_delta_minor), 0);
    expect(customerSum).not.toBe(0);
  });

  it('each invoice received what its payment rows say and gave back what its refund rows say', async () => {
    const ledger = await db().selectFrom('billing_transactions').selectAll().execute();
    const invoices = await db().selectFrom('billing_invoices').selectAll().execute();
    const ofCustomers = invoices.filter((i) => i.customer_id !== null);
    expect(ofCustomers.length).toBeGreaterThan(10);
    for (const inv of invoices) {
      const of = (types: string[]) =>
        ledger
          .filter((r) => Number(r.invoice_id) === Number(inv.id) && types.includes(r.type))
          .reduce((s, r) => s + Number(r.amount_minor), 0);
      expect(Number(inv.amount_paid_minor), inv.number).toBe(of(['payment', 'credit_deduct']));
      expect(Number(inv.amount_refunded_minor), inv.number).toBe(of(['refund']));
      if (inv.status === 'paid' || inv.status === 'refunded')
        expect(Number(inv.amount_paid_minor), inv.number).toBe(Number(inv.total_minor));
      if (inv.status === 'refunded')
        expect(Number(inv.amount_refunded_minor), inv.number).toBe(Number(inv.amount_paid_minor));
      // A customer's payment rows are the customer's ledger, never the owner's.
      const rows = ledger.filter((r) => Number(r.invoice_id) === Number(inv.id));
      for (const r of rows) expect(r.customer_id === null, inv.number).toBe(inv.customer_id === null);
    }
    const refunded = ofCustomers.filter((i) => Number(i.amount_refunded_minor) > 0);
    expect(refunded.some((i) => i.status === 'refunded')).toBe(true);
    expect(refunded.some((i) => i.status === 'paid')).toBe(true);
  });

  it('every paid platform_mor invoice has one settlement: gross the amount paid, net gross less the fee', async () => {
    const invoices = await db()
      .selectFrom('billing_invoices')
      .selectAll()
      .where('org_id', '=', orgIds[SLUGS.p]!)
      .where('customer_id', 'is not', null)
      .execute();
    const settlements = await db().selectFrom('billing_settlements').selectAll().execute();
    const org = (await asOwner('GET', `${ORGS}/${SLUGS.p}`)).body;
    expect(org.platform_fee_percent).toBe('12.50');
    let paid = 0;
    for (const inv of invoices) {
      expect(inv.seller, inv.number).toBe('platform');
      const mine = settlements.filter((s) => Number(s.invoice_id) === Number(inv.id));
      if (Number(inv.amount_paid_minor) === 0) {
        expect(mine, inv.number).toEqual([]);
        continue;
      }
      paid++;
      expect(mine, inv.number).toHaveLength(1);
      const s = mine[0]!;
      const gross = Number(inv.amount_paid_minor);
      const fee = Math.round((gross * Number(org.platform_fee_percent)) / 100);
      expect([Number(s.gross_minor), Number(s.fee_minor), Number(s.net_minor)], inv.number).toEqual([
        gross,
        fee,
        gross - fee,
      ]);
      expect([Number(s.org_id), s.currency], inv.number).toEqual([orgIds[SLUGS.p], inv.currency]);
    }
    expect(paid).toBeGreaterThan(3);
    // Nothing else is settled: not the merchant_of_record organization's sales, not the owner's invoices.
    expect(settlements).toHaveLength(paid);
  });

  it('every merchant_of_record customer invoice is the organization’s, with its wholesale invoice', async () => {
    const org = orgIds[SLUGS.m]!;
    const invoices = await db()
      .selectFrom('billing_invoices')
      .selectAll()
      .where('org_id', '=', org)
      .execute();
    const lines = await db().selectFrom('billing_invoice_lines').selectAll().execute();
    const serviceOf = (id: number) =>
      lines.filter((l) => Number(l.invoice_id) === id).map((l) => Number(l.service_id));
    const own = invoices.filter((i) => i.customer_id !== null);
    const wholesale = invoices.filter((i) => i.customer_id === null);
    expect(own.length).toBeGreaterThan(3);
    expect(wholesale).toHaveLength(own.length);
    const matched = new Set<number>();
    for (const inv of own) {
      expect(inv.seller, inv.number).toBe('organization');
      const twin = wholesale.find(
        (w) =>
          !matched.has(Number(w.id)) &&
          Number(w.total_minor) === Number(inv.total_minor) &&
          w.created_at.getTime() === inv.created_at.getTime() &&
          serviceOf(Number(w.id)).join() === serviceOf(Number(inv.id)).join(),
      );
      expect(twin, inv.number).toBeDefined();
      matched.add(Number(twin!.id));
      expect([twin!.seller, Number(twin!.user_id)], inv.number).toEqual(['platform', owner.id]);
    }
    // The owner's credit paid the wholesale invoices (at the order, at the run, or after a top-up).
    const paid = wholesale.filter((w) => w.status === 'paid');
    expect(paid.length).toBeGreaterThan(0);
  });

  it('what the Stripe-shaped server took and gave back is what the ledger says went through it', async () => {
    const ledger = await db().selectFrom('billing_transactions').selectAll().execute();
    const succeeded = [...stripe.paymentIntents.values()].filter((pi) => pi.status === 'succeeded');
    const taken = succeeded.reduce((s, pi) => s + (pi.amount as number), 0);
    const given = [...stripe.refunds.values()].reduce((s, r) => s + (r.amount as number), 0);
    const viaStripe = (type: string, customers: boolean) =>
      ledger
        .filter((r) => r.gateway === 'stripe' && r.type === type && (r.customer_id !== null) === customers)
        .reduce((s, r) => s + Number(r.amount_minor), 0);
    const customerPayments = viaStripe('payment', true);
    const ownerTopUps = viaStripe('credit_add', false);
    expect(customerPayments).toBeGreaterThan(0);
    expect(given).toBeGreaterThan(0);
    expect([taken, given]).toEqual([customerPayments + ownerTopUps, viaStripe('refund', true)]);
    expect(taken - given).toBe(
      customerPayments + ownerTopUps - viaStripe('refund', true) - viaStripe('refund', false),
    );
    const count = (f: (r: (typeof ledger)[number]) => boolean) => ledger.filter(f).length;
    const settlements = await db().selectFrom('billing_settlements').selectAll().execute();
    const wholesale = await db()
      .selectFrom('billing_invoices')
      .select(['status'])
      .where('org_id', '=', orgIds[SLUGS.m]!)
      .where('customer_id', 'is', null)
      .execute();
    console.info('customers month figures', {
      taken,
      given,
      customerPayments,
      ownerTopUps,
      customerCardPayments: count((r) => r.customer_id !== null && r.type === 'payment'),
      customerCreditPayments: count((r) => r.customer_id !== null && r.type === 'credit_deduct'),
      refundsToCard: count((r) => r.customer_id !== null && r.type === 'refund' && r.gateway === 'stripe'),
      refundsToCredit: count((r) => r.customer_id !== null && r.type === 'refund' && r.gateway === 'credit'),
      settlements: settlements.length,
      wholesale: wholesale.length,
      wholesalePaid: wholesale.filter((w) => w.status === 'paid').length,
    });
  });
});
