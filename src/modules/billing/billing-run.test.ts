/**
 * The daily billing run over real HTTP with a moved clock (embedded database, or PostgreSQL and
 * Redis): a paid monthly plan is due one month on; its renewal invoice comes 7 days early and is
 * paid from credit when the balance covers it (the due date moves one cycle); a day run twice does
 * nothing the second time; an unpaid renewal is overdue the day after it is due, its service
 * suspended on day 3 and terminated on day 14 (the DNS hosting zones released); paying an overdue
 * invoice lifts the suspension; a cancellation at the end of the period ends the service then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.ts';
import { mailTo, startSmtpSink, type SmtpSink } from '../../testing/smtp-sink.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { BillingModule } from './billing-module.ts';

const DNS_PRO = { product_id: 2, pricing_id: 2 };
const B = '/api/v1/billing';
const at = (day: string, time = '09:00:00') => Date.parse(`${day}T${time}.000Z`);

describe('the daily billing run', () => {
  const clock = new ManualClock(at('2026-01-10', '12:00:00'));
  let t: TestApp;
  let billing: BillingModule;
  const users: Record<string, string> = {};
  const emails: Record<string, string> = {};
  const svc: Record<string, number> = {};
  let zoneId = 0;
  let smtp: SmtpSink;

  const get = (token: string, path: string) => t.request('GET', path, { token });
  const service = async (who: string) => (await get(users[who]!, `/api/v1/services/${svc[who]}`)).body;
  const invoices = async (who: string) =>
    (await get(users[who]!, `${B}/invoices`)).body as Record<string, unknown>[];
  /** Moves the clock; access tokens live minutes, so everyone signs in again. */
  const moveTo = async (day: string) => {
    clock.set(at(day));
    for (const who of Object.keys(emails)) users[who] = await t.signIn(emails[who]!);
  };
  const run = async (day: string) => {
    await moveTo(day);
    return billing.runDay(new Date(at(day)));
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ env: { ROLE: 'api', SMTP_URL: smtp.url }, clock });
    billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    for (const who of ['alice', 'bob', 'carol', 'dave']) {
      const account = await t.signUp();
      users[who] = account.token;
      emails[who] = account.email;
      const ordered = await t.request('POST', '/api/v1/services/order', { token: users[who], body: DNS_PRO });
      expect(ordered.status, ordered.text).toBe(201);
      svc[who] = ordered.body.id as number;
      const paid = await t.request('POST', `${B}/invoices/${ordered.body.invoice_id}/pay`, {
        token: users[who],
        body: { method: 'card' },
      });
      expect(paid.status, paid.text).toBe(200);
    }
    const zone = await t.request('POST', '/api/v1/dns/zones', {
      token: users.bob,
      body: { domain: `run-${Date.now().toString(36)}.example`, service_id: svc.bob },
    });
    expect(zone.status, zone.text).toBe(201);
    zoneId = zone.body.id as number;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('sets next_due_date one cycle after the paid plan is provisioned', async () => {
    expect(await service('alice')).toMatchObject({
      status: 'active',
      next_due_date: '2026-02-10T12:00:00.000Z',
    });
  });

  it('invoices a renewal exactly 7 days early and pays it from credit; the same day again does nothing', async () => {
    const topUp = await t.request('POST', `${B}/credit/top-up`, { token: users.alice, body: { amount: 4 } });
    expect(topUp.status, topUp.text).toBe(201);
    const cancel = await t.request('POST', `/api/v1/services/${svc.dave}/cancel`, { token: users.dave });
    expect(cancel.body).toMatchObject({ status: 'pending_termination' });

    expect(await run('2026-02-02')).toMatchObject({ ran: true, invoiced: 0 });
    expect(await invoices('alice')).toHaveLength(1);

    expect(await run('2026-02-03')).toMatchObject({ ran: true, invoiced: 3, paidFromCredit: 1 });
    const [renewal] = await invoices('alice');
    expect(renewal).toMatchObject({ status: 'paid', total: 4, due_at: '2026-02-10T12:00:00.000Z' });
    const [row] = (await get(users.alice!, `${B}/transactions`)).body;
    expect(row).toMatchObject({
      type: 'credit_deduct',
      amount: 4,
      balance_after: 0,
      invoice_id: renewal!.id,
    });
    expect(await service('alice')).toMatchObject({
      status: 'active',
      next_due_date: '2026-03-10T12:00:00.000Z',
    });
    // Without credit the renewal stays unpaid; a service cancelled at period end gets none.
    expect((await invoices('bob'))[0]).toMatchObject({
      status: 'unpaid',
      due_at: '2026-02-10T12:00:00.000Z',
    });
    expect(await invoices('dave')).toHaveLength(1);
    // A reminder to the payer of an unpaid renewal; none for one paid from credit.
    const bobsInvoice = (await invoices('bob'))[0]!;
    const reminder = await smtp.waitFor((m) => mailTo(m) === emails.bob && /is due/.test(m.subject ?? ''));
    expect(reminder.subject).toBe(`Invoice ${bobsInvoice.number} is due`);
    expect(smtp.messages.filter((m) => mailTo(m) === emails.alice)).toEqual([]);

    expect(await run('2026-02-03')).toMatchObject({ ran: false, invoiced: 0 });
    expect(await invoices('alice')).toHaveLength(2);
    expect(await invoices('bob')).toHaveLength(2);
  });

  it('ends a service cancelled at the end of its period on its next_due_date', async () => {
    await run('2026-02-09');
    expect((await service('dave')).status).toBe('pending_termination');
    await run('2026-02-10');
    expect(await service('dave')).toMatchObject({ status: 'terminated', terminated_at: expect.any(String) });
  });

  it('dunning: overdue the day after due, suspended on day 3, terminated on day 14 (zones released)', async () => {
    expect((await invoices('bob'))[0]!.status).toBe('unpaid');
    await run('2026-02-11');
    expect((await invoices('bob'))[0]!.status).toBe('overdue');
    await smtp.waitFor((m) => mailTo(m) === emails.bob && /is overdue/.test(m.subject ?? ''));
    expect((await service('bob')).status).toBe('active');
    await run('2026-02-12');
    expect((await service('bob')).status).toBe('active');
    await run('2026-02-13');
    expect(await service('bob')).toMatchObject({ status: 'suspended' });
    expect((await service('carol')).status).toBe('suspended');

    // Carol pays her overdue invoice: the suspension lifts and the due date moves on.
    await moveTo('2026-02-14');
    const open = (await invoices('carol'))[0]!;
    const paid = await t.request('POST', `${B}/invoices/${open.id}/pay`, {
      token: users.carol,
      body: { method: 'card' },
    });
    expect(paid.status, paid.text).toBe(200);
    expect(await service('carol')).toMatchObject({
      status: 'active',
      next_due_date: '2026-03-10T12:00:00.000Z',
    });

    await run('2026-02-23');
    expect((await service('bob')).status).toBe('suspended');
    expect((await get(users.bob!, `/api/v1/dns/zones/${zoneId}`)).body.service_id).toBe(svc.bob);
    await run('2026-02-24');
    expect(await service('bob')).toMatchObject({ status: 'terminated', terminated_at: expect.any(String) });
    expect((await get(users.bob!, `/api/v1/dns/zones/${zoneId}`)).body.service_id).toBeNull();
    expect((await invoices('bob'))[0]!.status).toBe('cancelled');
    expect((await service('carol')).status).toBe('active');
  });

  it('runs a day once when two callers start it together (one per deployment)', async () => {
    await moveTo('2026-02-25');
    const both = await Promise.all([1, 2].map(() => billing.runDay(new Date(at('2026-02-25')))));
    expect(both.map((r) => r.ran).sort()).toEqual([false, true]);
  });
});
