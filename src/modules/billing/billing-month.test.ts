/**
 * A simulated month of billing that must not drift (embedded database, or PostgreSQL and Redis):
 * over 31 days on a ManualClock, with seeded randomness, four accounts order priced monthly plans,
 * top up credit, pay by credit and by card (the Stripe adapter against a local Stripe-shaped
 * server; some cards declined), get renewals from the daily run, are refunded to credit and to the
 * card, and hold hourly plans billed in arrears on the first of the month. Then, read from the
 * database: each account's credit is the sum of its ledger, the answered balance and its latest
 * row's balance_after, every row's balance_after the running sum; each invoice received what its
 * payment rows say and gave back what its refund rows say; and what Stripe holds matches the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../kernel/errors/app-error.ts';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { productsWithPricing } from '../../testing/catalog-fixture.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { startStripeServer, type StripeServer } from '../../testing/stripe-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { importCatalogFileText } from '../catalog/index.ts';
import type { BillingModule } from './billing-module.ts';
import type { BillingTables } from './billing-tables.ts';
import { activeHours, arrearsMinor, monthBefore } from './hourly-arrears.ts';

const B = '/api/v1/billing';
const DNS_PRO = { product_id: 2, pricing_id: 2 };
const SMTP_BUSINESS = { product_id: 4, pricing_id: 5 };
const DNS_PRO_HOURLY = { product_id: 2, pricing_id: 90 };
const DAY = 24 * 3600_000;
const FIRST_DAY = Date.parse('2026-01-03T00:00:00.000Z');
const DAYS = 31;
const WHO = ['ann', 'ben', 'cat', 'dan'] as const;
type Who = (typeof WHO)[number];

describe('a simulated month of billing', () => {
  const clock = new ManualClock(FIRST_DAY + 8 * 3600_000);
  const random = createSeededRandom(2026_01);
  let stripe: StripeServer;
  let t: TestApp;
  let billing: BillingModule;
  const tokens = {} as Record<Who, string>;
  const emails = {} as Record<Who, string>;
  const hourly: number[] = [];
  const done = { refundsToCard: 0, refundsToCredit: 0, declined: 0, paidByCard: 0, paidByCredit: 0 };

  const req = (who: Who, method: string, path: string, body?: unknown) =>
    t.request(method, path, { token: tokens[who], ...(body === undefined ? {} : { body }) });
  const openInvoices = async (who: Who) =>
    (await req(who, 'GET', `${B}/invoices?status_filter=open&limit=200`)).body as { id: number }[];

  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({
      env: { ROLE: 'api', STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: stripe.url },
      clock,
    });
    billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    const hourlyPrice = { id: DNS_PRO_HOURLY.pricing_id, billing_cycle: 'hourly', price: '0.0137' };
    const imported = await importCatalogFileText(t.node.runtime, productsWithPricing(2, hourlyPrice));
    expect(imported).toMatchObject({ ok: true });
    for (const who of WHO) {
      const account = await t.signUp();
      [tokens[who], emails[who]] = [account.token, account.email];
    }
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  const order = async (who: Who, body: unknown) => {
    const ordered = await req(who, 'POST', '/api/v1/services/order', body);
    expect(ordered.status, ordered.text).toBe(201);
    return ordered.body as { id: number; invoice_id: number | null };
  };
  const topUp = async (who: Who, cents: number) => {
    const res = await req(who, 'POST', `${B}/credit/top-up`, {
      amount: (cents / 100).toFixed(2),
      payment_method: 'pm_card_visa',
    });
    expect(res.status, res.text).toBe(201);
  };
  const pay = async (who: Who, invoiceId: number, body: { method: string; payment_method?: string }) => {
    const res = await req(who, 'POST', `${B}/invoices/${invoiceId}/pay`, body);
    expect([200, 402], res.text).toContain(res.status);
    if (res.status === 402 && body.method === 'card') done.declined++;
    if (res.status === 200) done[body.method === 'card' ? 'paidByCard' : 'paidByCredit']++;
  };
  /** An operator's refund of one of the account's paid invoices: a random part or all, to either place. */
  const refundSome = async (who: Who) => {
    const paid = (await req(who, 'GET', `${B}/invoices?status_filter=paid&limit=200`)).body as {
      id: number;
      amount_paid: number;
      amount_refunded: number;
    }[];
    if (paid.length === 0) return;
    const invoice = random.pick(paid);
    const left = Math.round((invoice.amount_paid - invoice.amount_refunded) * 100);
    const amount = random.int(3) === 0 ? null : 1 + random.int(left);
    const to = random.pick(['credit', 'original'] as const);
    const view = await billing.refund(invoice.id, amount, to);
    expect(view.amount_refunded).toBeCloseTo(invoice.amount_refunded + (amount ?? left) / 100, 2);
    const [row] = (await req(who, 'GET', `${B}/transactions?type_filter=refund&limit=1`)).body;
    done[row.gateway === 'credit' ? 'refundsToCredit' : 'refundsToCard']++;
  };
  const act = async (who: Who) => {
    const r = random.int(10);
    if (r < 2) await order(who, random.pick([DNS_PRO, SMTP_BUSINESS]));
    else if (r < 4) await topUp(who, 100 + random.int(2500));
    else if (r < 8) {
      const open = await openInvoices(who);
      if (open.length === 0) return;
      const method = random.pick([
        { method: 'credit' },
        { method: 'card', payment_method: 'pm_card_visa' },
        { method: 'card', payment_method: 'pm_card_chargeDeclined' },
      ]);
      await pay(who, random.pick(open).id, method);
    } else await refundSome(who);
  };

  it('runs 31 days of orders, top-ups, payments, renewals, refunds and hourly plans', async () => {
    // Day one: every account holds a paid monthly plan (renewed in the month's last week), two by
    // card and two from credit; one refund of each kind; two hourly plans, one cancelled later.
    for (const [i, who] of WHO.entries()) {
      const ordered = await order(who, i % 2 === 0 ? DNS_PRO : SMTP_BUSINESS);
      if (i < 2) await pay(who, ordered.invoice_id!, { method: 'card', payment_method: 'pm_card_visa' });
      else {
        await topUp(who, 2500);
        await pay(who, ordered.invoice_id!, { method: 'credit' });
      }
    }
    for (const who of ['ann', 'cat'] as const) {
      const [paid] = (await req(who, 'GET', `${B}/invoices?status_filter=paid`)).body;
      await billing.refund(paid.id, 150, who === 'ann' ? 'original' : 'credit');
      done[who === 'ann' ? 'refundsToCard' : 'refundsToCredit']++;
    }
    hourly.push((await order('ann', DNS_PRO_HOURLY)).id);

    for (let day = 0; day < DAYS; day++) {
      const start = FIRST_DAY + day * DAY;
      clock.set(start + 8 * 3600_000 + random.int(3600_000));
      for (const who of WHO) tokens[who] = await t.signIn(emails[who]);
      const result = await billing.runDay(new Date(clock.now()));
      expect(result.ran).toBe(true);
      if (day === 5) hourly.push((await order('ben', DNS_PRO_HOURLY)).id);
      if (day === 12) {
        const cancelled = await req('ben', 'POST', `/api/v1/services/${hourly[1]}/cancel`);
        expect(cancelled.body.status).toBe('terminated');
      }
      for (let i = 0; i < 6; i++) {
        clock.advance(30_000 + random.int(60_000));
        await act(random.pick(WHO));
      }
    }
    expect(done.paidByCard).toBeGreaterThan(2);
    expect(done.paidByCredit).toBeGreaterThan(2);
    expect(done.declined).toBeGreaterThan(0);
    expect(done.refundsToCard).toBeGreaterThan(1);
    expect(done.refundsToCredit).toBeGreaterThan(1);
  }, 300_000);

  it('made renewals through the daily run, and the hourly invoices for every hour begun', async () => {
    const db = tablesOf<BillingTables>(t.node.runtime);
    expect((await db.selectFrom('billing_renewals').selectAll().execute()).length).toBeGreaterThanOrEqual(4);
    const rows = await db
      .selectFrom('billing_hourly_invoices as h')
      .innerJoin('billing_invoices as i', 'i.id', 'h.invoice_id')
      .select(['h.service_id', 'h.hours', 'i.total_minor'])
      .orderBy('h.service_id')
      .execute();
    const january = monthBefore(new Date('2026-02-01T00:00:00Z'));
    const expected = [];
    for (const [i, id] of hourly.entries()) {
      const service = (await req(WHO[i]!, 'GET', `/api/v1/services/${id}`)).body;
      const terminated = service.terminated_at === null ? null : new Date(service.terminated_at);
      const hours = activeHours(january.start, january.end, new Date(service.activated_at), terminated);
      expected.push([id, hours, arrearsMinor(hours, '0.0137')]);
    }
    expect(rows.map((r) => [Number(r.service_id), r.hours, Number(r.total_minor)])).toEqual(expected);
    expect(expected[0]![1]).toBeGreaterThan(24 * 28);
  });

  it('never drifts: ledger, balances, invoices and Stripe agree', async () => {
    const db = tablesOf<BillingTables>(t.node.runtime);
    const ledger = await db.selectFrom('billing_transactions').selectAll().orderBy('id').execute();
    for (const who of WHO) {
      const me = (await req(who, 'GET', '/api/v1/auth/me')).body as { id: number };
      const rows = ledger.filter((r) => Number(r.user_id) === me.id);
      let running = 0;
      for (const r of rows) {
        running += Number(r.credit_delta_minor);
        expect(Number(r.balance_after_minor), `${who} row ${r.id}`).toBe(running);
      }
      const sum = await db
        .selectFrom('billing_transactions')
        .select((e) => e.fn.sum<string>('credit_delta_minor').as('sum'))
        .where('user_id', '=', me.id)
        .executeTakeFirstOrThrow();
      const answered = (await req(who, 'GET', `${B}/credit`)).body.balance as number;
      expect(Math.round(answered * 100), who).toBe(Number(sum.sum));
      expect(Number(rows.at(-1)!.balance_after_minor), who).toBe(Number(sum.sum));
    }
    const invoices = await db.selectFrom('billing_invoices').selectAll().execute();
    expect(invoices.length).toBeGreaterThan(10);
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
    }
    // What Stripe took and gave back is what the ledger says went through it.
    const succeeded = [...stripe.paymentIntents.values()].filter((pi) => pi.status === 'succeeded');
    const taken = succeeded.reduce((s, pi) => s + (pi.amount as number), 0);
    const given = [...stripe.refunds.values()].reduce((s, r) => s + (r.amount as number), 0);
    const viaStripe = (type: string) =>
      ledger
        .filter((r) => r.gateway === 'stripe' && r.type === type)
        .reduce((s, r) => s + Number(r.amount_minor), 0);
    expect([taken, given]).toEqual([viaStripe('payment') + viaStripe('credit_add'), viaStripe('refund')]);
  });

  it('refuses a refund beyond what is left', async () => {
    const db = tablesOf<BillingTables>(t.node.runtime);
    const paid = await db.selectFrom('billing_invoices').selectAll().where('status', '=', 'paid').execute();
    expect(paid.length).toBeGreaterThan(0);
    const inv = paid[0]!;
    const left = Number(inv.amount_paid_minor) - Number(inv.amount_refunded_minor);
    const refused = await billing.refund(Number(inv.id), left + 1, 'credit').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(422);
  });
});
