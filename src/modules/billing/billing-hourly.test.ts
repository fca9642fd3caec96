/**
 * Hourly plans billed in arrears, over real HTTP with a moved clock (embedded database, or
 * PostgreSQL and Redis). The operator's catalogue import gives DNS Hosting Pro (a provisioned
 * module) an hourly price: ordering it makes no invoice and provisions at once; on the first day
 * of the next month the daily run invoices each service once for the hours it was active (a
 * cancelled one up to its termination), paid from credit when it covers the amount, else due that
 * day with the renewals' dunning (overdue, suspended on day 3, lifted once paid; cancelled with
 * the service on day 14); hourly orders are not counted against the free-order budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productsWithPricing } from '../../testing/catalog-fixture.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { importCatalogFileText } from '../catalog/index.ts';
import type { BillingModule } from './billing-module.ts';

const B = '/api/v1/billing';
const HOURLY_PRICING = 90;
const DNS_PRO_HOURLY = { product_id: 2, pricing_id: HOURLY_PRICING };
const at = (day: string, time = '09:00:00') => Date.parse(`${day}T${time}.000Z`);

describe('hourly plans billed in arrears', () => {
  const clock = new ManualClock(at('2026-01-10', '10:30:00'));
  let t: TestApp;
  let billing: BillingModule;
  const users: Record<string, string> = {};
  const emails: Record<string, string> = {};
  const svc: Record<string, number> = {};

  const get = (who: string, path: string) => t.request('GET', path, { token: users[who]! });
  const invoices = async (who: string) => (await get(who, `${B}/invoices`)).body as Record<string, unknown>[];
  const status = async (who: string) => (await get(who, `/api/v1/services/${svc[who]}`)).body.status;
  const moveTo = async (ms: number) => {
    clock.set(ms);
    for (const who of Object.keys(emails)) users[who] = await t.signIn(emails[who]!);
  };
  const run = async (day: string) => {
    await moveTo(at(day));
    return billing.runDay(new Date(at(day)));
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' }, clock });
    billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    expect(
      await importCatalogFileText(
        t.node.runtime,
        productsWithPricing(2, { id: HOURLY_PRICING, billing_cycle: 'hourly', price: '0.0125' }),
      ),
    ).toMatchObject({
      ok: true,
    });
    for (const who of ['alice', 'bob', 'carol']) {
      const account = await t.signUp();
      [users[who], emails[who]] = [account.token, account.email];
    }
  });
  afterAll(async () => t?.close());

  it('provisions an hourly plan at once, with no invoice and no due date', async () => {
    const topUp = await t.request('POST', `${B}/credit/top-up`, {
      token: users.carol!,
      body: { amount: 10 },
    });
    expect(topUp.status, topUp.text).toBe(201);
    for (const who of ['alice', 'bob', 'carol']) {
      const ordered = await t.request('POST', '/api/v1/services/order', {
        token: users[who]!,
        body: DNS_PRO_HOURLY,
      });
      expect(ordered.status, ordered.text).toBe(201);
      expect(ordered.body).toMatchObject({
        status: 'active',
        billing_cycle: 'hourly',
        price: 0.0125,
        invoice_id: null,
        next_due_date: null,
      });
      svc[who] = ordered.body.id as number;
      expect(await invoices(who)).toEqual([]);
    }
    // Bob cancels: an hourly plan ends at once, its hours up to then billed next month.
    await moveTo(Date.parse('2026-01-20T10:00:00.001Z'));
    const cancelled = await t.request('POST', `/api/v1/services/${svc.bob}/cancel`, { token: users.bob! });
    expect(cancelled.body).toMatchObject({ status: 'terminated', terminated_at: '2026-01-20T10:00:00.001Z' });
  });

  it('invoices the previous month on the first day: hours begun while active × price, once', async () => {
    expect(await run('2026-01-31')).toMatchObject({ ran: true, hourly: 0 });
    expect(await run('2026-02-01')).toMatchObject({ ran: true, hourly: 3, paidFromCredit: 1 });
    // 10 Jan 10:30 → 1 Feb 00:00 is 517.5 h: 518 h × 0.0125 = 6.475, rounded half up once.
    const [alice] = await invoices('alice');
    expect(alice).toMatchObject({ status: 'unpaid', total: 6.48, due_at: '2026-02-01T00:00:00.000Z' });
    const line = (await get('alice', `${B}/invoices/${alice!.id}`)).body.lines;
    expect(line).toEqual([
      {
        description: 'DNS Hosting Pro (hourly, 2026-01: 518 h × 0.0125 EUR)',
        quantity: 1,
        unit_amount: 6.48,
        amount: 6.48,
        service_id: svc.alice,
      },
    ]);
    // 10 Jan 10:30 → 20 Jan 10:00:00.001 begins 240 hours: 3.00.
    expect(await invoices('bob')).toEqual([expect.objectContaining({ status: 'unpaid', total: 3 })]);
    expect(await invoices('carol')).toEqual([expect.objectContaining({ status: 'paid', total: 6.48 })]);
    expect((await get('carol', `${B}/credit`)).body.balance).toBe(3.52);

    expect(await run('2026-02-01')).toMatchObject({ ran: false, hourly: 0 });
    expect(await run('2026-02-02')).toMatchObject({ ran: true, hourly: 0, overdue: 2 });
    expect((await invoices('alice'))[0]!.status).toBe('overdue');
  });

  it('dunning as renewals: suspended on day 3, lifted once paid; day 14 cancels the invoice', async () => {
    await run('2026-02-03');
    expect(await status('alice')).toBe('active');
    await run('2026-02-04');
    expect(await status('alice')).toBe('suspended');
    await moveTo(at('2026-02-05'));
    const open = (await invoices('alice'))[0]!;
    const paid = await t.request('POST', `${B}/invoices/${open.id}/pay`, {
      token: users.alice!,
      body: { method: 'card' },
    });
    expect(paid.status, paid.text).toBe(200);
    expect(await status('alice')).toBe('active');
    await run('2026-02-14');
    expect((await invoices('bob'))[0]!.status).toBe('overdue');
    await run('2026-02-15');
    expect((await invoices('bob'))[0]!.status).toBe('cancelled');
    expect((await invoices('alice'))[0]!.status).toBe('paid');
  });

  it('a whole month active is every hour of it; a terminated service is billed no more', async () => {
    expect(await run('2026-03-01')).toMatchObject({ ran: true, hourly: 2 });
    const [february] = await invoices('alice');
    expect(february).toMatchObject({ total: 8.4, due_at: '2026-03-01T00:00:00.000Z' }); // 672 h
    expect(await invoices('bob')).toHaveLength(1);
  });

  it('counts no hourly order against the free-order budget (12 in 10 minutes)', async () => {
    const { token } = await t.signUp();
    for (let i = 0; i < 13; i++) {
      const ordered = await t.request('POST', '/api/v1/services/order', { token, body: DNS_PRO_HOURLY });
      expect(ordered.status, `order ${i + 1}: ${ordered.text}`).toBe(201);
    }
  });
});
