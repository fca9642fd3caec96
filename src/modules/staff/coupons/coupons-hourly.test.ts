/**
 * Coupons on hourly plans, over real HTTP with a moved clock: an hourly order makes no invoice, so
 * the first month's invoice is the service's first — any coupon takes its part off it — and a
 * coupon that discounts every invoice takes its part off each later month too; a plan ordered
 * without a coupon is billed its full hours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productsWithPricing } from '../../../testing/catalog-fixture.ts';
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
import { importCatalogFileText } from '../../catalog/index.ts';

const SLUG = 'coupons-hourly';
const HOURLY_PRICING = 90;
const DNS_PRO_HOURLY = { product_id: 2, pricing_id: HOURLY_PRICING };
const at = (day: string, time = '00:00:00') => Date.parse(`${day}T${time}.000Z`);

type Line = { description: string; amount: number; service_id?: number | null };
type Invoice = { id: number; total: number; lines: Line[]; service_ids: number[] };

describe('coupons on hourly plans', () => {
  const clock = new ManualClock(at('2026-01-01', '00:00:00'));
  let t: TestApp;
  let billing: BillingModule;
  const email = 'hourly@example.com';
  let token: string;
  const portal = (method: string, path: string, body?: Record<string, unknown>) =>
    t.request(method, `${ORGS}/${SLUG}/portal${path}`, { token, ...(body === undefined ? {} : { body }) });
  /** The customer's invoices for `serviceId`, oldest first. */
  const invoicesOf = async (serviceId: number): Promise<Invoice[]> => {
    const list = await portal('GET', '/invoices?limit=500');
    expect(list.status, list.text).toBe(200);
    const out: Invoice[] = [];
    for (const item of list.body as { id: number }[]) {
      const inv = (await portal('GET', `/invoices/${item.id}`)).body as Invoice;
      if (inv.service_ids.includes(serviceId)) out.push(inv);
    }
    return out.sort((a, b) => a.id - b.id);
  };
  const runOn = async (day: string) => {
    clock.set(at(day));
    token = (await t.request('POST', `${ORGS}/${SLUG}/auth/login`, { body: { email, password: PASSWORD } }))
      .body.access_token as string;
    return billing.runDay(new Date(at(day)));
  };

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { LIMITS_EXEMPT: '127.0.0.0/8,::1' } });
    billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    const imported = await importCatalogFileText(
      t.node.runtime,
      productsWithPricing(2, { id: HOURLY_PRICING, billing_cycle: 'hourly', price: '0.0125' }),
    );
    expect(imported).toMatchObject({ ok: true });
    const owner = await t.signUp();
    const org = await createOrg(t, owner.token, SLUG);
    const admin = (await staffLogin(t, SLUG, owner.email)).token;
    for (const body of [
      { code: 'EVERY', value: '10', first_invoice_only: false },
      { code: 'ONCE', value: '20' },
    ]) {
      const made = await t.request('POST', `${ORGS}/${SLUG}/staff/coupons`, { token: admin, body });
      expect(made.status, made.text).toBe(201);
    }
    const made = await storefrontCustomer(t, SLUG, email);
    token = made.token;
    const ownerId = (await t.request('GET', '/api/v1/auth/me', { token: owner.token })).body.id as number;
    await grantCustomerCredit(
      t,
      { ownerId, orgId: org.id, customerId: made.id },
      100000,
      new Date(clock.now()),
    );
  }, 180_000);
  afterAll(async () => t?.close());

  it(
    'discounts the first month for any coupon, later months for one that discounts every invoice',
    {
      timeout: 180_000,
    },
    async () => {
      const order = async (coupon?: string) => {
        const res = await portal('POST', '/services/order', {
          ...DNS_PRO_HOURLY,
          ...(coupon === undefined ? {} : { coupon_code: coupon }),
        });
        expect(res.status, res.text).toBe(201);
        expect(res.body.invoice_id).toBeNull();
        return res.body.id as number;
      };
      const every = await order('EVERY');
      const once = await order('ONCE');
      const plain = await order();

      // January: 744 hours × 0.0125 = 9.30 each.
      expect(await runOn('2026-02-01')).toMatchObject({ hourly: 3 });
      const january = async (id: number) => (await invoicesOf(id))[0]!;
      expect((await january(plain)).lines.map((l) => l.amount)).toEqual([9.3]);
      expect((await january(plain)).total).toBe(9.3);
      expect((await january(every)).lines.map((l) => [l.description, l.amount])).toEqual([
        [expect.stringContaining('hourly, 2026-01: 744 h'), 9.3],
        ['Coupon EVERY', -0.93],
      ]);
      expect((await january(every)).total).toBe(8.37);
      expect((await january(once)).lines.map((l) => [l.description, l.amount])).toEqual([
        [expect.stringContaining('hourly, 2026-01: 744 h'), 9.3],
        ['Coupon ONCE', -1.86],
      ]);

      // February: 672 hours = 8.40; the coupon for the first invoice only is spent.
      expect(await runOn('2026-03-01')).toMatchObject({ hourly: 3 });
      const february = async (id: number) => (await invoicesOf(id))[1]!;
      expect((await february(every)).lines.map((l) => l.amount)).toEqual([8.4, -0.84]);
      expect((await february(once)).lines.map((l) => l.amount)).toEqual([8.4]);
      expect((await february(plain)).lines.map((l) => l.amount)).toEqual([8.4]);
    },
  );
});
