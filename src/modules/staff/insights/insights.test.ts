import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, addMember, createOrg, staffLogin, storefrontCustomer } from '../../../testing/org-fixture.ts';
import { setUpShop, type Shop } from '../../../testing/shop-fixture.ts';
import { setStaffRole } from '../../../testing/staff-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const DAY = 86_400_000;
const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Rue X',
  city: 'Paris',
  postal_code: '75001',
  country_code: 'FR',
};

/** RFC 4180: fields split on commas, quoted fields may hold commas, quotes ("" for one) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

interface Row {
  date: string;
  revenue: Record<string, string>;
  orders: number;
  new_customers: number;
  active_services: number;
  support_opened: number;
  support_closed: number;
}

describe('the staff console’s insights', () => {
  // Two days before "today" (2026-03-10) at 09:00 UTC.
  const clock = new ManualClock(Date.UTC(2026, 2, 8, 9));
  let t: TestApp;
  let shop: Shop;
  let ownerEmail: string;
  const emails: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const place = async (): Promise<number> => {
    const ok = async (method: string, path: string, body: unknown, status = 200) => {
      const res = await shop.store(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
      return res.body;
    };
    const { cart } = await ok(
      'POST',
      'carts',
      { country_code: 'fr', email: 'ann@shop.example', items: [{ variant_id: ids.mug, quantity: 1 }] },
      201,
    );
    await ok('PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
    await ok('POST', `carts/${cart.id}/shipping-methods`, { option_id: ids.standard });
    await ok('POST', `carts/${cart.id}/payment-sessions`, { provider: 'manual' });
    const { order } = await ok('POST', `carts/${cart.id}/complete`, {});
    return order.id as number;
  };
  const get = async (role: string, path: string) =>
    t.request('GET', `${ORGS}/${shop.slug}/staff/${path}`, {
      token: (await staffLogin(t, shop.slug, emails[role]!)).token,
    });

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const owner = await t.signUp();
    ownerEmail = owner.email;
    shop = await setUpShop(t, owner.token, 'insights-a');
    const a = shop.admin;
    ids.eu = (
      await a('POST', 'regions', {
        name: 'Europe',
        currency_code: 'EUR',
        countries: ['FR'],
        tax_rate: 20,
        tax_inclusive: true,
        payment_providers: ['manual'],
      })
    ).id;
    ids.parcels = (await a('POST', 'shipping-profiles', { name: 'Parcels' })).id;
    ids.mug = (
      await a('POST', 'products', {
        title: 'Mug',
        status: 'published',
        sales_channel_ids: [shop.salesChannelId],
        shipping_profile_id: ids.parcels,
        variants: [{ title: 'One', sku: 'MUG', prices: [{ currency_code: 'EUR', amount: 12.5 }] }],
      })
    ).variants[0].id;
    ids.warehouse = (
      await a('POST', 'stock-locations', { name: 'Warehouse', sales_channel_ids: [shop.salesChannelId] })
    ).id;
    await a(
      'POST',
      'inventory/batch',
      { levels: [{ sku: 'MUG', stock_location_id: ids.warehouse, stocked_quantity: 100 }] },
      200,
    );
    ids.standard = (
      await a('POST', 'shipping-options', {
        region_id: ids.eu,
        shipping_profile_id: ids.parcels,
        name: 'Standard',
        price_type: 'flat',
        amount: 4.5,
      })
    ).id;
    const all = await t.request('POST', `${ORGS}/${shop.slug}/api-keys`, {
      token: owner.token,
      body: { label: 'all', permissions: { scopes: ['commerce:*'] } },
    });
    expect(all.status, all.text).toBe(201);
    const adminStaff = (await staffLogin(t, shop.slug, owner.email)).token;
    emails.admin = owner.email;
    for (const role of ['billing', 'tier3', 'tier1'] as const) {
      const mate = await t.signUp();
      emails[role] = mate.email;
      const member = await addMember(t, owner.token, shop.slug, mate.email, 'member');
      if (role !== 'tier1') await setStaffRole(t, adminStaff, shop.slug, member.user_id, role);
    }

    // 2026-03-08: an order of 17.00 EUR (12.50 + 4.50 shipping), paid, and a customer registered.
    await place();
    await storefrontCustomer(t, shop.slug, 'first@example.com');
    // 2026-03-09: an order placed and canceled the same day (captured, then refunded): 0.00, one order.
    clock.advance(DAY);
    const canceled = await place();
    const cancel = await t.request('POST', `${ORGS}/${shop.slug}/commerce/orders/${canceled}/cancel`, {
      headers: { 'x-api-key': all.body.raw_key as string },
    });
    expect(cancel.status, cancel.text).toBe(200);
    // 2026-03-10 (today): two customers, and another organization's customer that does not count.
    clock.advance(DAY);
    await storefrontCustomer(t, shop.slug, 'second@example.com');
    await storefrontCustomer(t, shop.slug, 'third@example.com');
    const stranger = await t.signUp();
    await createOrg(t, stranger.token, 'insights-b');
    await storefrontCustomer(t, 'insights-b', 'elsewhere@example.com');
  }, 240_000);
  afterAll(async () => t?.close());

  it('answers a row per day, oldest first, zeros included, with Commerce revenue and orders', async () => {
    const res = await get('admin', 'insights?days=5');
    expect(res.status, res.text).toBe(200);
    const zero = { orders: 0, new_customers: 0, active_services: 0, support_opened: 0, support_closed: 0 };
    expect(res.body).toEqual({
      days: 5,
      currencies: ['EUR'],
      rows: [
        { date: '2026-03-06', revenue: { EUR: '0.00' }, ...zero },
        { date: '2026-03-07', revenue: { EUR: '0.00' }, ...zero },
        { date: '2026-03-08', revenue: { EUR: '17.00' }, ...zero, orders: 1, new_customers: 1 },
        { date: '2026-03-09', revenue: { EUR: '0.00' }, ...zero, orders: 1 },
        { date: '2026-03-10', revenue: { EUR: '0.00' }, ...zero, new_customers: 2 },
      ],
    });
    // The default is 30 days, ending today.
    const month = await get('billing', 'insights');
    expect(month.status, month.text).toBe(200);
    const rows = month.body.rows as Row[];
    expect([rows.length, rows[0]!.date, rows[29]!.date]).toEqual([30, '2026-02-09', '2026-03-10']);
    // One day: today only.
    const today = await get('admin', 'insights?days=1');
    expect((today.body.rows as Row[]).map((r) => r.date)).toEqual(['2026-03-10']);
  });

  it('refuses days outside 1–365 with 422 naming days, and the tiers with 403', async () => {
    for (const days of ['0', '366', 'week']) {
      for (const path of [`insights?days=${days}`, `insights/export.csv?days=${days}`]) {
        const res = await get('admin', path);
        expect(res.status, res.text).toBe(422);
        expect(res.body.detail[0].loc).toEqual(['query', 'days']);
      }
    }
    for (const role of ['tier3', 'tier1']) {
      for (const path of ['insights', 'insights/export.csv']) {
        const res = await get(role, path);
        expect(res.status, `${role} ${path}`).toBe(403);
      }
    }
    const main = await t.request('GET', `${ORGS}/${shop.slug}/staff/insights`, {
      token: await t.signIn(ownerEmail),
    });
    expect(main.status).toBe(401);
  });

  it('exports the same rows as CSV, a column per measure and per currency', async () => {
    const json = await get('billing', 'insights?days=7');
    const csv = await get('billing', 'insights/export.csv?days=7');
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...lines] = parseCsv(csv.text);
    expect(header).toEqual([
      'date',
      'revenue_eur',
      'orders',
      'new_customers',
      'active_services',
      'support_opened',
      'support_closed',
    ]);
    const parsed = lines.map((fields) => {
      const cell = (name: string) => fields[header!.indexOf(name)]!;
      return {
        date: cell('date'),
        revenue: { EUR: cell('revenue_eur') },
        orders: Number(cell('orders')),
        new_customers: Number(cell('new_customers')),
        active_services: Number(cell('active_services')),
        support_opened: Number(cell('support_opened')),
        support_closed: Number(cell('support_closed')),
      };
    });
    expect(parsed).toHaveLength(7);
    expect(parsed).toEqual(json.body.rows);
    expect(parsed.find((r) => r.date === '2026-03-08')?.revenue.EUR).toBe('17.00');
  });

  it('reads quoted fields back (the parser the test trusts)', () => {
    expect(parseCsv('a,"b,""c""\r\nd"\r\n1,2\r\n')).toEqual([
      ['a', 'b,"c"\r\nd'],
      ['1', '2'],
    ]);
  });
});
