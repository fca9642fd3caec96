/**
 * Storefront analytics over real HTTP (embedded database or PostgreSQL): the script with its site
 * key and cache headers; the public ingestion route (202, Do Not Track and bots dropped, 10 a
 * second per address, 422 naming the field, CORS); stats, pages, live, today and conversions
 * figures from known hits on a moved clock; the date rules; retention by moving the clock a month.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { ORGS, PASSWORD, createOrg, storefrontCustomer } from '../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { WebhooksModule } from '../webhooks/index.ts';
import type { AnalyticsTables } from './analytics-tables.ts';

const T0 = Date.UTC(2026, 10, 29, 10); // Sunday 29 November 2026, 10:00 UTC
const MIN = 60_000;
const UA_A = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const UA_B = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 Version/17.1 Safari/605.1.15';

describe('storefront analytics', () => {
  const clock = new ManualClock(T0);
  let t: TestApp;
  let owner: { token: string; email: string };
  let stranger: { token: string; email: string };
  let customer: { id: number; token: string };
  let key: string;
  let engine: WebhooksModule['engine'];
  const db = () => tablesOf<AnalyticsTables>(t.node.runtime);

  const hit = (body: unknown, headers: Record<string, string> = {}, siteKey = key) =>
    t.request('POST', `/api/v1/t/${siteKey}`, { body, headers: { 'user-agent': UA_A, ...headers } });
  const at = (minutes: number) => clock.set(T0 + minutes * MIN);
  // A fresh token each time: the clock moves past a token's life.
  const read = async (path: string) => {
    const token = await t.signIn(owner.email);
    const res = await t.request('GET', `${ORGS}/shop/tracking/${path}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp({ clock, env: { ROLE: 'api' } });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop(); // the test runs each delivery round itself
    owner = await t.signUp();
    stranger = await t.signUp();
    await createOrg(t, owner.token, 'shop');
    await createOrg(t, stranger.token, 'other-shop');
    customer = await storefrontCustomer(t, 'shop', 'buyer@example.com');
  });
  afterAll(async () => t?.close());

  it('serves the script with the site key, a long cache and an ETag (304 when unchanged)', async () => {
    const res = await t.request('GET', `${ORGS}/shop/tracking/script`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(res.headers.get('cache-control')).toMatch(/max-age=86400/);
    key = /var key = "(site_[0-9a-f]{24})"/.exec(res.text)![1]!;
    expect(res.text).toContain('platformAnalytics');
    const etag = res.headers.get('etag')!;
    const again = await t.request('GET', `${ORGS}/shop/tracking/script`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    // The key is made once and kept.
    expect((await t.request('GET', `${ORGS}/shop/tracking/script`)).text).toContain(key);
    const other = await t.request('GET', `${ORGS}/other-shop/tracking/script`);
    expect(other.text).not.toContain(key);
    expect((await t.request('GET', `${ORGS}/nope/tracking/script`)).status).toBe(404);
  });

  it('takes page views and events (202, CORS), drops Do Not Track and bots, refuses bad input with 422', async () => {
    at(0);
    const first = await hit({
      name: 'pageview',
      url: 'https://shop.example/?utm_source=news&utm_campaign=bf',
      screen_width: 1280,
    });
    expect(first.status, first.text).toBe(202);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await t.request('OPTIONS', `/api/v1/t/${key}`, {
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Content-Type/i);
    at(1);
    expect(
      (
        await hit({
          name: 'pageview',
          url: 'https://shop.example/products',
          referrer: 'https://shop.example/',
        })
      ).status,
    ).toBe(202);
    at(2);
    expect(
      (await hit({ name: 'signup', url: 'https://shop.example/products', props: { plan: 'pro' } })).status,
    ).toBe(202);
    at(2.5);
    // The storefront links the signed-in customer to this visit (from the `news` campaign).
    expect(
      (await hit({ name: 'link', url: 'https://shop.example/products', link: `customer:${customer.id}` }))
        .status,
    ).toBe(202);
    at(3);
    const b = await hit(
      { name: 'pageview', url: 'https://shop.example/', referrer: 'https://search.example/?q=hosting' },
      { 'user-agent': UA_B },
    );
    expect(b.status).toBe(202);
    at(45);
    expect((await hit({ name: 'pageview', url: 'https://shop.example/pricing' })).status).toBe(202);
    at(46);
    // Do Not Track, a crawler, no user agent: 202, not stored.
    expect(
      (
        await hit(
          { name: 'pageview', url: 'https://shop.example/dnt' },
          { dnt: '1', 'user-agent': UA_B + ' X' },
        )
      ).status,
    ).toBe(202);
    expect(
      (
        await hit(
          { name: 'pageview', url: 'https://shop.example/bot' },
          { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' },
        )
      ).status,
    ).toBe(202);
    clock.advance(1000);
    for (const [body, field] of [
      [{ name: 'pageview' }, 'url'],
      [{ url: '/' }, 'name'],
      [{ name: 'pageview', url: '/', screen_width: -1 }, 'screen_width'],
      [{ name: 'pageview', url: '/', props: { a: { deep: 1 } } }, 'props'],
      [{ name: 'pageview', url: '/', link: 'cart:1' }, 'link'],
    ] as const) {
      clock.advance(1000);
      const res = await hit(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.body.detail)).toContain(field);
    }
    clock.advance(1000);
    expect((await hit({ name: 'pageview', url: '/' }, {}, 'site_unknown')).status).toBe(404);
  });

  it('answers stats, pages, live and today from those hits', async () => {
    at(47);
    const day = await read('stats?start_date=2026-11-29&end_date=2026-11-29');
    // A: visit 1 (/ , /products, signup: 120 s), then visit 3 (/pricing, 43 minutes later); B: visit 2.
    const figures = {
      visitors: 2,
      pageviews: 4,
      visits: 3,
      bounce_rate: 66.7,
      visit_duration_s: 40,
      events: 1,
    };
    expect(day).toEqual({
      start_date: '2026-11-29',
      end_date: '2026-11-29',
      granularity: 'daily',
      totals: figures,
      results: [{ date: '2026-11-29T00:00:00.000Z', ...figures }],
    });
    const hourly = await read('stats?start_date=2026-11-29&end_date=2026-11-29&granularity=hourly');
    expect(hourly.results).toHaveLength(24);
    expect(hourly.results[10]).toEqual({ date: '2026-11-29T10:00:00.000Z', ...figures });
    expect(hourly.results[9].pageviews).toBe(0);
    const pages = await read('pages?start_date=2026-11-29&end_date=2026-11-29');
    expect(pages).toEqual({
      page: 1,
      per_page: 50,
      total: 3,
      results: [
        { path: '/', pageviews: 2, visitors: 2 },
        { path: '/pricing', pageviews: 1, visitors: 1 },
        { path: '/products', pageviews: 1, visitors: 1 },
      ],
    });
    const second = await read('pages?start_date=2026-11-29&end_date=2026-11-29&page=2&per_page=2');
    expect(second.results).toEqual([{ path: '/products', pageviews: 1, visitors: 1 }]);
    // Live: the last five minutes (since 10:42): A's /pricing.
    expect(await read('live')).toMatchObject({ visitors: 1, pageviews: 1 });
    const today = await read('today');
    expect(today.date).toBe('2026-11-29');
    expect(today.totals).toEqual(figures);
    expect(today.hours[10]).toMatchObject({ hour: '2026-11-29T10:00:00.000Z', pageviews: 4, visits: 3 });
    // Another organization's member reads nothing of it.
    const strangerToken = await t.signIn(stranger.email);
    expect((await t.request('GET', `${ORGS}/shop/tracking/live`, { token: strangerToken })).status).toBe(404);
    expect((await t.request('GET', `${ORGS}/shop/tracking/live`)).status).toBe(401);
    // Neither the address nor the user agent is stored.
    const rows = await db().selectFrom('analytics_events').selectAll().execute();
    expect(JSON.stringify(rows)).not.toMatch(/127\.0\.0\.1|Firefox|Safari/);
  });

  it('answers 422 for missing, malformed and reversed dates', async () => {
    for (const [query, field] of [
      ['stats?end_date=2026-11-29', 'start_date'],
      ['stats?start_date=2026-11-29', 'end_date'],
      ['stats?start_date=2026-11-30&end_date=2026-11-29', 'end_date'],
      ['stats?start_date=2026-02-30&end_date=2026-03-01', 'start_date'],
      ['stats?start_date=2026-11-01&end_date=2026-11-29&granularity=yearly', 'granularity'],
      ['stats?start_date=2026-01-01&end_date=2026-11-29&granularity=hourly', 'granularity'],
      ['pages?start_date=2026-11-30&end_date=2026-11-29', 'end_date'],
      ['pages?start_date=2026-11-29&end_date=2026-11-29&per_page=0', 'per_page'],
      ['conversions?start_date=2026-11-29', 'end_date'],
      ['conversions?start_date=2026-11-30&end_date=2026-11-01', 'end_date'],
    ] as const) {
      const res = await t.request('GET', `${ORGS}/shop/tracking/${query}`, {
        token: await t.signIn(owner.email),
      });
      expect(res.status, query).toBe(422);
      expect(JSON.stringify(res.body.detail), query).toContain(field);
    }
  });

  it('counts a storefront order as a conversion of the visit its customer was linked to', async () => {
    at(48);
    const login = await t.request('POST', `${ORGS}/shop/auth/login`, {
      body: { email: 'buyer@example.com', password: PASSWORD },
    });
    const order = await t.request('POST', `${ORGS}/shop/portal/services/order`, {
      token: login.body.access_token,
      body: { product_id: 1, pricing_id: 1 },
    });
    expect(order.status, order.text).toBe(201);
    await engine.runOnce();
    const conv = await read('conversions?start_date=2026-11-29&end_date=2026-11-29');
    expect(conv).toMatchObject({ visits: 3, conversions: 1, orders: 1, conversion_rate: 33.3 });
    expect(conv.sources).toEqual([
      {
        source: 'news',
        referrer: null,
        utm_source: 'news',
        utm_medium: null,
        utm_campaign: 'bf',
        visits: 1,
        conversions: 1,
        orders: 1,
        conversion_rate: 100,
      },
      expect.objectContaining({ source: 'direct', visits: 1, conversions: 0, conversion_rate: 0 }),
      expect.objectContaining({
        source: 'search.example',
        referrer: 'search.example',
        visits: 1,
        conversions: 0,
      }),
    ]);
  });

  it('counts a visitor again on a new day (a new salt), and sums days into weeks and months', async () => {
    clock.set(Date.UTC(2026, 10, 30, 9));
    expect((await hit({ name: 'pageview', url: 'https://shop.example/' })).status).toBe(202);
    const days = await read('stats?start_date=2026-11-29&end_date=2026-11-30');
    expect(days.results.map((r: { visitors: number }) => r.visitors)).toEqual([2, 1]);
    expect(days.totals).toMatchObject({ visitors: 3, pageviews: 5, visits: 4 });
    const weeks = await read('stats?start_date=2026-11-29&end_date=2026-11-30&granularity=weekly');
    expect(weeks.results.map((r: { date: string; pageviews: number }) => [r.date, r.pageviews])).toEqual([
      ['2026-11-23T00:00:00.000Z', 4],
      ['2026-11-30T00:00:00.000Z', 1],
    ]);
    const months = await read('stats?start_date=2026-11-01&end_date=2026-12-31&granularity=monthly');
    expect(months.results.map((r: { pageviews: number }) => r.pageviews)).toEqual([5, 0]);
    // Yesterday's salt is gone.
    const salts = await db().selectFrom('analytics_salts').select('day').execute();
    const dayText = (d: unknown) => (d instanceof Date ? d.toISOString() : String(d)).slice(0, 10);
    expect(salts.map((s) => dayText(s.day))).toEqual(['2026-11-30']);
  });

  it('drops raw events after TRACKING_RETENTION_DAYS (30) and keeps the rollups', async () => {
    clock.set(Date.UTC(2026, 11, 29, 12)); // 30 days after 29 November: still kept
    expect((await read('pages?start_date=2026-11-29&end_date=2026-11-29')).total).toBe(3);
    clock.set(Date.UTC(2026, 11, 30, 12)); // 31 days after
    expect((await read('pages?start_date=2026-11-29&end_date=2026-11-29')).total).toBe(0);
    expect((await read('pages?start_date=2026-11-30&end_date=2026-11-30')).total).toBe(1);
    const old = await db()
      .selectFrom('analytics_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('at', '<', new Date(Date.UTC(2026, 10, 30)))
      .executeTakeFirstOrThrow();
    expect(Number(old.n)).toBe(0);
    const visits = await db().selectFrom('analytics_visits').select('started_at').execute();
    expect(visits).toHaveLength(1);
    const stats = await read('stats?start_date=2026-11-29&end_date=2026-11-30');
    expect(stats.totals).toMatchObject({ visitors: 3, pageviews: 5, visits: 4, events: 1 });
  });

  it('refuses an 11th hit a second from one address with 429', async () => {
    clock.advance(5000);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await hit({ name: 'pageview', url: `/burst/${i}` })).status);
    expect(codes).toEqual([...Array(10).fill(202), 429]);
    clock.advance(1001);
    expect((await hit({ name: 'pageview', url: '/after' })).status).toBe(202);
  });
});
