/**
 * The insights' hosting figures over real HTTP: `revenue` counts the organization's storefront
 * customers' hosting invoices on the day they were paid (their total, a coupon's discount taken
 * off), never an unpaid one nor another organization's, and takes refunds off on the day they are
 * made (a past day keeps its figure); `active_services` counts services from the day they are
 * activated (a paid or free plan), never one still pending.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import {
  ORGS,
  createOrg,
  grantCustomerCredit,
  staffLogin,
  storefrontCustomer,
} from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { BillingModule } from '../../billing/index.ts';

const DAY = 86_400_000;
const DNS_FREE = { product_id: 1, pricing_id: 1 };
const DNS_PRICED = { product_id: 2, pricing_id: 2 };

type Customer = { id: number; token: string };

describe('the staff console’s insights: hosting revenue and active services', () => {
  // 2026-03-08 09:00 UTC; "today" is 2026-03-09 when the figures are read.
  const clock = new ManualClock(Date.UTC(2026, 2, 8, 9));
  let t: TestApp;
  let ownerEmail: string;
  let ownerId: number;
  const orgIds: Record<string, number> = {};
  const portal = (slug: string, c: Customer, method: string, path: string, body?: unknown) =>
    t.request(method, `${ORGS}/${slug}/portal${path}`, {
      token: c.token,
      ...(body === undefined ? {} : { body: body as Record<string, unknown> }),
    });
  /** A customer with credit (no route grants it: a ledger row, as the billing tests do). */
  const customer = async (slug: string, orgId: number, email: string): Promise<Customer> => {
    const made = await storefrontCustomer(t, slug, email);
    await grantCustomerCredit(t, { ownerId, orgId, customerId: made.id }, 100000, new Date(clock.now()));
    return made;
  };
  /** The invoices `order` made, in order. */
  const invoiceIds: number[] = [];
  /** Orders a plan through the portal; pays its invoice from credit when `pay`: its total in minor units. */
  const order = async (slug: string, c: Customer, body: Record<string, unknown>, pay: boolean) => {
    const ordered = await portal(slug, c, 'POST', '/services/order', body);
    expect(ordered.status, ordered.text).toBe(201);
    const invoiceId = ordered.body.invoice_id as number | null;
    if (invoiceId === null) return 0;
    invoiceIds.push(invoiceId);
    const invoice = await portal(slug, c, 'GET', `/invoices/${invoiceId}`);
    expect(invoice.status, invoice.text).toBe(200);
    if (pay) {
      const paid = await portal(slug, c, 'POST', `/invoices/${invoiceId}/pay`, { method: 'credit' });
      expect(paid.status, paid.text).toBe(200);
    }
    return Math.round((invoice.body.total as number) * 100);
  };
  const eur = (minor: number) => (minor / 100).toFixed(2);

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { LIMITS_EXEMPT: '127.0.0.0/8,::1' } });
    const owner = await t.signUp();
    ownerEmail = owner.email;
    ownerId = (await t.request('GET', '/api/v1/auth/me', { token: owner.token })).body.id as number;
    for (const slug of ['insights-hosting', 'insights-other'])
      orgIds[slug] = (await createOrg(t, owner.token, slug)).id as number;
  }, 180_000);
  afterAll(async () => t?.close());

  it('counts paid customers’ invoices as revenue on their day of payment, and active services', async () => {
    const slug = 'insights-hosting';
    const orgId = (s: string) => orgIds[s]!;
    // 2026-03-08: ann's priced plan, paid; another unpaid one (pending: neither revenue nor active).
    const ann = await customer(slug, orgId(slug), 'ann@example.com');
    const first = await order(slug, ann, DNS_PRICED, true);
    expect(first).toBeGreaterThan(0);
    await order(slug, ann, DNS_PRICED, false);
    // Another organization's paid invoice and active service count for it alone.
    const eve = await customer('insights-other', orgId('insights-other'), 'eve@example.com');
    await order('insights-other', eve, DNS_PRICED, true);

    // 2026-03-09: bob's plan with a 50 % coupon, paid (its discounted total), and a free plan.
    clock.advance(DAY);
    const admin = (await staffLogin(t, slug, ownerEmail)).token;
    const coupon = await t.request('POST', `${ORGS}/${slug}/staff/coupons`, {
      token: admin,
      body: { code: 'HALF', value: 50 },
    });
    expect(coupon.status, coupon.text).toBe(201);
    const bob = await customer(slug, orgId(slug), 'bob@example.com');
    const second = await order(slug, bob, { ...DNS_PRICED, coupon_code: 'HALF' }, true);
    expect(second).toBe(first - Math.floor((first * 5000 + 5_000) / 10_000));
    expect(await order(slug, bob, DNS_FREE, false)).toBe(0);

    const res = await t.request('GET', `${ORGS}/${slug}/staff/insights?days=3`, { token: admin });
    expect(res.status, res.text).toBe(200);
    expect(res.body.currencies).toEqual(['EUR']);
    const rows = res.body.rows as {
      date: string;
      revenue: Record<string, string>;
      active_services: number;
    }[];
    expect(rows.map((r) => [r.date, r.revenue, r.active_services])).toEqual([
      ['2026-03-07', { EUR: '0.00' }, 0],
      ['2026-03-08', { EUR: eur(first) }, 1],
      ['2026-03-09', { EUR: eur(second) }, 3],
    ]);
    expect(rows.map((r) => (r as unknown as { orders: number }).orders)).toEqual([0, 2, 2]);
    // The other organization sees its own invoice and service only.
    const otherAdmin = (await staffLogin(t, 'insights-other', ownerEmail)).token;
    const other = await t.request('GET', `${ORGS}/insights-other/staff/insights?days=2`, {
      token: otherAdmin,
    });
    expect(other.status, other.text).toBe(200);
    expect(other.body.rows).toMatchObject([
      { date: '2026-03-08', revenue: { EUR: eur(first) }, active_services: 1 },
      { date: '2026-03-09', revenue: { EUR: '0.00' }, active_services: 1 },
    ]);
  });

  it('takes refunds off on the day they are made, a full refund included', async () => {
    const slug = 'insights-hosting';
    const billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    // 2026-03-10: 1.00 of ann's first invoice back to her credit, and all of bob's discounted one.
    clock.advance(DAY);
    const [annFirst, , , bobHalf] = invoiceIds;
    await billing.refund(annFirst!, 100, 'credit');
    const whole = await billing.refund(bobHalf!, null, 'credit');
    expect(whole.status).toBe('refunded');
    const admin = (await staffLogin(t, slug, ownerEmail)).token;
    const res = await t.request('GET', `${ORGS}/${slug}/staff/insights?days=3`, { token: admin });
    expect(res.status, res.text).toBe(200);
    const rows = res.body.rows as { date: string; revenue: Record<string, string> }[];
    const paidBob = Math.round(whole.total * 100);
    expect(rows.map((r) => [r.date, r.revenue])).toEqual([
      ['2026-03-08', { EUR: rows[0]!.revenue.EUR }],
      // Bob's invoice is refunded now, yet the day it was paid keeps it.
      ['2026-03-09', { EUR: eur(paidBob) }],
      ['2026-03-10', { EUR: eur(-(100 + paidBob)) }],
    ]);
    expect(Number(rows[0]!.revenue.EUR)).toBeGreaterThan(0);
  });
});
