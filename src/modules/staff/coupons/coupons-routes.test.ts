/**
 * The console's coupons over real HTTP: an admin creates and changes coupons; a storefront
 * customer's order redeems a code (the discount a line of the first invoice) or is refused with
 * 422 naming `coupon_code` and a reason of its own; the last redemption is spent once under 20
 * orders at the same time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, addMember, createOrg, staffLogin, storefrontCustomer } from '../../../testing/org-fixture.ts';
import { setStaffRole } from '../../../testing/staff-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const DNS_PRICED = { product_id: 2, pricing_id: 2 };
const T0 = Date.UTC(2026, 10, 30, 9);
const MINUTE = 60_000;
const at = (ms: number) => new Date(ms).toISOString();

type Coupon = {
  id: number;
  code: string;
  value: string;
  redeemed_count: number;
  applies_to: number[] | null;
};
type Customer = { id: number; token: string };
type Invoice = { id: number; total_minor: number; currency: string };

describe('staff coupons', () => {
  const clock = new ManualClock(T0);
  let t: TestApp;
  let admin: string;
  let notAdmin: string;
  let ann: Customer;
  let bob: Customer;
  let baseline: Invoice;
  let ownerToken: string;
  const base = `${ORGS}/coupons-one/staff/coupons`;
  const create = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', base, { token: admin, body });
    expect(res.status, res.text).toBe(201);
    return res.body as Coupon;
  };
  const patch = async (id: number, body: Record<string, unknown>) => {
    const res = await t.request('PATCH', `${base}/${id}`, { token: admin, body });
    expect(res.status, res.text).toBe(200);
    return res.body as Coupon;
  };
  const order = (c: Customer, coupon_code?: string) =>
    t.request('POST', `${ORGS}/coupons-one/portal/services/order`, {
      token: c.token,
      body: { ...DNS_PRICED, ...(coupon_code === undefined ? {} : { coupon_code }) },
    });
  const invoice = async (id: number): Promise<Invoice> => {
    const row = await tablesOf<{ billing_invoices: Invoice }>(t.node.runtime)
      .selectFrom('billing_invoices')
      .select(['id', 'total_minor', 'currency'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), total_minor: Number(row.total_minor), currency: row.currency };
  };
  const refusedAs = async (c: Customer, code: string, reason: string) => {
    const res = await order(c, code);
    expect(res.status, res.text).toBe(422);
    const detail = (res.body as { detail: { loc: string[]; type: string }[] }).detail;
    expect(detail[0]!.loc).toEqual(['body', 'coupon_code']);
    expect(detail[0]!.type).toBe(reason);
  };

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { LIMITS_EXEMPT: '127.0.0.0/8,::1' } });
    const owner = await t.signUp();
    ownerToken = owner.token;
    const mate = await t.signUp();
    await createOrg(t, owner.token, 'coupons-one');
    const added = await addMember(t, owner.token, 'coupons-one', mate.email, 'member');
    admin = (await staffLogin(t, 'coupons-one', owner.email)).token;
    await setStaffRole(t, admin, 'coupons-one', added.user_id, 'billing');
    notAdmin = (await staffLogin(t, 'coupons-one', mate.email)).token;
    ann = await storefrontCustomer(t, 'coupons-one', 'ann@example.com');
    bob = await storefrontCustomer(t, 'coupons-one', 'bob@example.com');
    const plain = await order(ann);
    expect(plain.status, plain.text).toBe(201);
    baseline = await invoice(plain.body.invoice_id as number);
    expect(baseline.total_minor).toBeGreaterThan(0);
  }, 180_000);
  afterAll(async () => t?.close());

  it(
    'creates and changes coupons; values parsed exactly; codes unique whatever their case',
    { timeout: 120_000 },
    async () => {
      const save = await create({ code: 'SAVE10', value: '10' });
      expect(save).toMatchObject({
        code: 'SAVE10',
        value: '10.00',
        kind: 'percent',
        redeemed_count: 0,
        applies_to: null,
      });
      expect(
        (await t.request('POST', base, { token: admin, body: { code: 'save10', value: 5 } })).status,
      ).toBe(409);
      for (const [body, field] of [
        [{ code: 'BAD1', value: '12.345' }, 'value'],
        [{ code: 'BAD2', value: 0.1 + 0.2 }, 'value'],
        [{ code: 'BAD3', value: '101' }, 'value'],
        [{ code: 'BAD4', value: '5', kind: 'fixed' }, 'currency'],
        [{ code: 'BAD5', value: '5', kind: 'bogus' }, 'kind'],
        [{ code: 'BAD6', value: '5', starts_at: at(T0), ends_at: at(T0 - MINUTE) }, 'ends_at'],
      ] as const) {
        const res = await t.request('POST', base, { token: admin, body });
        expect(res.status, res.text).toBe(422);
        expect(res.text).toContain(field);
      }
      const fixed = await create({
        code: 'Five',
        value: '12.50',
        kind: 'fixed',
        currency: baseline.currency,
      });
      expect(fixed.value).toBe('12.50');
      expect((await patch(save.id, { value: 12.5 })).value).toBe('12.50');
      expect((await patch(save.id, { applies_to: [2, 2] })).applies_to).toEqual([2]);
      expect((await patch(save.id, { clear_applies_to: true })).applies_to).toBeNull();
      expect(await patch(save.id, { max_redemptions: 50 })).toMatchObject({ max_redemptions: 50 });
      expect(await patch(save.id, { clear_max_redemptions: true })).toMatchObject({ max_redemptions: null });
      expect(
        (await t.request('PATCH', `${base}/999999`, { token: admin, body: { description: 'x' } })).status,
      ).toBe(404);
      // A console role other than admin manages no coupon.
      expect((await t.request('GET', base, { token: notAdmin })).status).toBe(403);
      expect(
        (await t.request('POST', base, { token: notAdmin, body: { code: 'X1', value: 1 } })).status,
      ).toBe(403);
      expect(
        (await t.request('POST', `${base}/feature`, { token: notAdmin, body: { enabled: false } })).status,
      ).toBe(403);
      const listed = await t.request('GET', `${base}?status=active`, { token: admin });
      expect((listed.body as Coupon[]).map((c) => c.code)).toEqual(['Five', 'SAVE10']);

      // Redeemed in any case: 12.5% off the first invoice, rounded half up in minor units.
      const res = await order(ann, 'save10');
      expect(res.status, res.text).toBe(201);
      const off = Math.floor((baseline.total_minor * 1250 + 5_000) / 10_000);
      expect((await invoice(res.body.invoice_id as number)).total_minor).toBe(baseline.total_minor - off);
      const fiveOff = await order(bob, 'FIVE');
      expect(fiveOff.status, fiveOff.text).toBe(201);
      expect((await invoice(fiveOff.body.invoice_id as number)).total_minor).toBe(
        Math.max(0, baseline.total_minor - 1250),
      );
    },
  );

  it('refuses a code with a reason per case, and orders nothing then', { timeout: 120_000 }, async () => {
    const services = async () =>
      (await t.request('GET', `${ORGS}/coupons-one/portal/services`, { token: bob.token })).body
        .length as number;
    const before = await services();
    await refusedAs(bob, 'NOPE', 'coupon_unknown');
    await create({ code: 'ONLYDNSFREE', value: 5, applies_to: [1] });
    await refusedAs(bob, 'onlydnsfree', 'coupon_not_applicable');
    await create({
      code: 'EUROS',
      value: 5,
      kind: 'fixed',
      currency: baseline.currency === 'EUR' ? 'USD' : 'EUR',
    });
    await refusedAs(bob, 'EUROS', 'coupon_not_applicable');
    await create({ code: 'OFF', value: 5, status: 'disabled' });
    await refusedAs(bob, 'OFF', 'coupon_disabled');
    await create({ code: 'OLD', value: 5, ends_at: at(T0 - MINUTE) });
    await refusedAs(bob, 'OLD', 'coupon_expired');
    const soon = await create({ code: 'SOON', value: 5, starts_at: at(T0 + 10 * MINUTE) });
    await refusedAs(bob, 'SOON', 'coupon_not_started');
    clock.set(T0 + 10 * MINUTE);
    expect((await order(bob, 'SOON')).status).toBe(201);
    clock.set(T0);
    await patch(soon.id, { status: 'expired' });
    await refusedAs(bob, 'SOON', 'coupon_expired');
    const once = await create({ code: 'ONCE', value: 5, per_customer_limit: 1 });
    expect((await order(bob, 'ONCE')).status).toBe(201);
    await refusedAs(bob, 'ONCE', 'coupon_customer_limit');
    expect((await order(ann, 'ONCE')).status).toBe(201);
    await patch(once.id, { per_customer_limit: null });
    expect((await order(bob, 'ONCE')).status).toBe(201);
    const off = await t.request('POST', `${base}/feature`, { token: admin, body: { enabled: false } });
    expect(off.body).toEqual({ enabled: false });
    await refusedAs(bob, 'SAVE10', 'coupon_feature_off');
    await t.request('POST', `${base}/feature`, { token: admin, body: { enabled: true } });
    // Refused orders made no service: bob has the four accepted ones only.
    expect(await services()).toBe(before + 3);
  });

  it('spends the last redemption once under 20 orders at the same time', { timeout: 180_000 }, async () => {
    const last = await create({ code: 'LAST', value: 20, max_redemptions: 3 });
    expect((await order(ann, 'LAST')).status).toBe(201);
    expect((await order(bob, 'LAST')).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => order(i % 2 ? ann : bob, 'last')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    for (const a of answers.filter((x) => x.status === 422)) expect(a.text).toContain('coupon_exhausted');
    await refusedAs(bob, 'LAST', 'coupon_exhausted');
    const listed = (await t.request('GET', base, { token: admin })).body as Coupon[];
    expect(listed.find((c) => c.id === last.id)?.redeemed_count).toBe(3);
    const all = await t.request('GET', `${base}/${last.id}/redemptions`, { token: admin });
    expect(all.status, all.text).toBe(200);
    expect(all.body).toHaveLength(3);
    const two = await t.request('GET', `${base}/${last.id}/redemptions?limit=2`, { token: admin });
    expect(two.body).toHaveLength(2);
    expect(two.body[0]).toMatchObject({ product_id: 2, currency: baseline.currency });
    expect((await t.request('GET', `${base}/999999/redemptions`, { token: admin })).status).toBe(404);
  });
  it('leaves the organization’s discount off the platform’s wholesale invoice (merchant of record)', async () => {
    const mode = await t.request('PATCH', `${ORGS}/coupons-one`, {
      token: ownerToken,
      body: { billing_mode: 'merchant_of_record' },
    });
    expect(mode.status, mode.text).toBe(200);
    await create({ code: 'OURS', value: 50 });
    const cara = await storefrontCustomer(t, 'coupons-one', 'cara@example.com');
    const res = await order(cara, 'OURS');
    expect(res.status, res.text).toBe(201);
    const own = await invoice(res.body.invoice_id as number);
    expect(own.total_minor).toBe(
      baseline.total_minor - Math.floor((baseline.total_minor * 5000 + 5_000) / 10_000),
    );
    const wholesale = await tablesOf<{
      billing_invoices: Invoice & { customer_id: number | null; created_at: Date };
    }>(t.node.runtime)
      .selectFrom('billing_invoices')
      .select(['id', 'total_minor'])
      .where('customer_id', 'is', null)
      .where('id', '>', own.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(Number(wholesale.total_minor)).toBe(baseline.total_minor);
  });
});
