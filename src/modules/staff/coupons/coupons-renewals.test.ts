/**
 * Coupons on renewals over real HTTP: a storefront customer's services ordered with a coupon that
 * discounts every invoice carry its discount on the renewal invoice the daily run makes (a percent
 * of the renewal, a fixed amount at most the renewal), even once the coupon is disabled or has
 * expired; a coupon for the first invoice only leaves the renewal at its full price.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import {
  ORGS,
  PASSWORD,
  createOrg,
  grantCustomerCredit,
  staffLogin,
  storefrontCustomer,
} from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { BillingModule } from '../../billing/index.ts';

const SLUG = 'coupons-renew';
const DNS_PRICED = { product_id: 2, pricing_id: 2 };
const T0 = Date.UTC(2026, 10, 30, 9);
const DAY = 24 * 3600_000;

type Line = { description: string; quantity: number; unit_amount: number; amount: number };
type Invoice = { id: number; status: string; currency: string; total: number; lines: Line[] };

describe('coupons on renewal invoices', () => {
  const clock = new ManualClock(T0);
  let t: TestApp;
  let billing: BillingModule;
  let admin: string;
  const email = 'renewing@example.com';
  let token: string;
  const portal = (method: string, path: string, body?: Record<string, unknown>) =>
    t.request(method, `${ORGS}/${SLUG}/portal${path}`, { token, ...(body === undefined ? {} : { body }) });
  const coupon = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', `${ORGS}/${SLUG}/staff/coupons`, { token: admin, body });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; first_invoice_only: boolean };
  };
  /**
   * Orders the priced DNS plan with `code` and pays its first invoice from credit: the service is
   * active. A first invoice the coupon took down to 0 is paid with the order already.
   */
  const orderAndPay = async (code: string) => {
    const ordered = await portal('POST', '/services/order', { ...DNS_PRICED, coupon_code: code });
    expect(ordered.status, ordered.text).toBe(201);
    const first = await portal('GET', `/invoices/${ordered.body.invoice_id}`);
    if ((first.body as Invoice).total === 0) {
      expect(first.body.status).toBe('paid');
      return ordered.body.id as number;
    }
    const paid = await portal('POST', `/invoices/${ordered.body.invoice_id}/pay`, { method: 'credit' });
    expect(paid.status, paid.text).toBe(200);
    return ordered.body.id as number;
  };
  /** The service's renewal (its newest invoice), read by its customer. */
  const renewalOf = async (serviceId: number): Promise<Invoice> => {
    const list = await portal('GET', '/invoices?limit=500');
    expect(list.status, list.text).toBe(200);
    for (const item of list.body as { id: number }[]) {
      const inv = (await portal('GET', `/invoices/${item.id}`)).body as Invoice & { service_ids: number[] };
      if (inv.service_ids.includes(serviceId)) return inv;
    }
    throw new Error(`no renewal invoice for service ${serviceId}`);
  };

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { LIMITS_EXEMPT: '127.0.0.0/8,::1' } });
    billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    const owner = await t.signUp();
    const org = await createOrg(t, owner.token, SLUG);
    admin = (await staffLogin(t, SLUG, owner.email)).token;
    const made = await storefrontCustomer(t, SLUG, email);
    token = made.token;
    const ownerId = (await t.request('GET', '/api/v1/auth/me', { token: owner.token })).body.id as number;
    // The customer's credit (no route grants it): the first invoices are paid from it.
    await grantCustomerCredit(t, { ownerId, orgId: org.id, customerId: made.id }, 100000, new Date(T0));
  }, 180_000);
  afterAll(async () => t?.close());

  it(
    'discounts renewals for first_invoice_only false (kept once disabled or expired), never for true',
    { timeout: 180_000 },
    async () => {
      const every = await coupon({ code: 'EVERY', value: '12.5', first_invoice_only: false });
      const first = await coupon({ code: 'FIRST', value: '12.5' });
      expect(first.first_invoice_only).toBe(true);
      const plain = await portal('POST', '/services/order', DNS_PRICED);
      expect(plain.status, plain.text).toBe(201);
      const firstInvoice = (await portal('GET', `/invoices/${plain.body.invoice_id}`)).body as Invoice;
      const { total: full, currency } = firstInvoice;
      const fullMinor = Math.round(full * 100);
      // A fixed coupon above the plan's price: the renewal is taken down to 0, never below.
      await coupon({
        code: 'BIG',
        value: ((fullMinor + 100) / 100).toFixed(2),
        kind: 'fixed',
        currency,
        first_invoice_only: false,
        ends_at: new Date(T0 + 2 * DAY).toISOString(),
      });
      const small = await coupon({
        code: 'SMALL',
        value: '0.25',
        kind: 'fixed',
        currency,
        first_invoice_only: false,
      });
      const svcEvery = await orderAndPay('every');
      const svcFirst = await orderAndPay('FIRST');
      const svcBig = await orderAndPay('BIG');
      const svcSmall = await orderAndPay('small');
      // Disabled since the order: a discount once attached stays (BIG expires with the clock's move).
      for (const id of [every.id, small.id]) {
        const off = await t.request('PATCH', `${ORGS}/${SLUG}/staff/coupons/${id}`, {
          token: admin,
          body: { status: 'disabled' },
        });
        expect(off.status, off.text).toBe(200);
      }

      // The run a month on (within the days before the due date) makes the renewals.
      const day = T0 + 30 * DAY;
      clock.set(day);
      token = (await t.request('POST', `${ORGS}/${SLUG}/auth/login`, { body: { email, password: PASSWORD } }))
        .body.access_token as string;
      const result = await billing.runDay(new Date(day));
      expect(result.invoiced).toBe(4);

      const percentOff = Math.floor((fullMinor * 1250 + 5_000) / 10_000);
      const renewalLine = expect.objectContaining({ quantity: 1, amount: full, unit_amount: full });
      const expectLines = async (serviceId: number, offMinor: number | null) => {
        const inv = await renewalOf(serviceId);
        expect(inv.lines[0]).toEqual(renewalLine);
        expect(inv.lines[0]!.description).toContain('renewal');
        if (offMinor === null) {
          expect(inv.lines).toHaveLength(1);
          expect(inv.total).toBe(full);
          return;
        }
        expect(inv.lines).toHaveLength(2);
        expect(inv.lines[1]).toMatchObject({
          quantity: 1,
          amount: -offMinor / 100,
          unit_amount: -offMinor / 100,
        });
        expect(inv.total).toBe((fullMinor - offMinor) / 100);
      };
      await expectLines(svcEvery, percentOff);
      expect((await renewalOf(svcEvery)).lines[1]!.description).toBe('Coupon EVERY');
      await expectLines(svcFirst, null);
      await expectLines(svcBig, fullMinor);
      await expectLines(svcSmall, 25);
    },
  );
});
