/**
 * The shop under load, each figure beside its reference in the same run (docs/benchmarks.md,
 * "Commerce"), on PostgreSQL when DATABASE_URL is set (the embedded database otherwise):
 *
 * - store products: `GET /orgs/{slug}/store/products` (a page of 20 of 60 published products, 3
 *   variants each, prices in 3 currencies, stock per channel) with a publishable key, against
 *   `GET /api/v1/locations` (a trivial public route) on the same product; autocannon, rounds
 *   alternating; the figure is the ratio of the medians (target ≥ 0.5).
 * - completion: carts made ready beforehand (one line, an e-mail, an address, a shipping method and
 *   a `manual` payment session each, every cart from an address of its own as shoppers are), then
 *   completed by `concurrency` clients at once; orders a second over the whole batch (target ≥ 100).
 */
import autocannon from 'autocannon';
import { setUpShop, type Shop } from '../src/testing/shop-fixture.ts';
import { startTestApp, type TestApp } from '../src/testing/test-app.ts';
import { median } from './bench-stats.ts';

export interface CommerceRound {
  readonly route: 'products' | 'locations';
  readonly rps: number;
  readonly p99Ms: number;
  readonly non2xx: number;
}

export interface CommerceResult {
  readonly database: 'postgres' | 'embedded';
  readonly rounds: CommerceRound[];
  readonly productsRps: number;
  readonly locationsRps: number;
  /** Store products ÷ locations throughput. */
  readonly ratio: number;
  readonly orders: number;
  readonly concurrency: number;
  readonly completionSeconds: number;
  readonly ordersPerSecond: number;
  /** Completions that did not answer 200 (none expected). */
  readonly failedCompletions: number;
}

const ADDRESS = { address_1: '1 Rue X', city: 'Paris', postal_code: '75001', country_code: 'FR' };

async function seedShop(t: TestApp): Promise<{ shop: Shop; variants: number[]; optionId: number }> {
  const { token } = await t.signUp();
  const shop = await setUpShop(t, token, 'bench-shop');
  const a = shop.admin;
  await a('POST', 'regions', {
    name: 'Europe',
    currency_code: 'EUR',
    countries: ['FR', 'DE'],
    tax_rate: 20,
    tax_inclusive: true,
    payment_providers: ['manual'],
  });
  const profile = (await a('POST', 'shipping-profiles', { name: 'Parcels' })).id as number;
  const location = await a('POST', 'stock-locations', {
    name: 'Warehouse',
    sales_channel_ids: [shop.salesChannelId],
  });
  const variants: number[] = [];
  const levels: { sku: string; stock_location_id: number; stocked_quantity: number }[] = [];
  for (let p = 0; p < 60; p++) {
    const made = await a('POST', 'products', {
      title: `Product ${String(p).padStart(2, '0')}`,
      status: 'published',
      sales_channel_ids: [shop.salesChannelId],
      shipping_profile_id: profile,
      options: [{ title: 'Size', values: ['S', 'M', 'L'] }],
      variants: ['S', 'M', 'L'].map((size) => ({
        title: size,
        sku: `P${p}-${size}`,
        options: { Size: size },
        prices: [
          { currency_code: 'EUR', amount: 10 + p },
          { currency_code: 'USD', amount: 12 + p },
          { currency_code: 'JPY', amount: 1500 + p },
        ],
      })),
    });
    for (const v of made.variants as { id: number; sku: string }[]) {
      variants.push(v.id);
      levels.push({ sku: v.sku, stock_location_id: location.id, stocked_quantity: 100_000 });
    }
  }
  await a('POST', 'inventory/batch', { levels }, 200);
  const region = (await shop.store('GET', 'regions')).body.regions[0];
  const option = await a('POST', 'shipping-options', {
    region_id: region.id,
    shipping_profile_id: profile,
    name: 'Standard',
    price_type: 'flat',
    amount: 4.5,
  });
  return { shop, variants, optionId: option.id as number };
}

function load(url: string, headers: Record<string, string>, seconds: number, connections: number) {
  return autocannon({ url, connections, duration: seconds, headers });
}

/** POST/PATCH a Store route as shopper `ip`; throws unless 2xx. */
async function shopper(t: TestApp, shop: Shop, ip: string, method: string, path: string, body: unknown) {
  const res = await t.request(method, `/api/v1/orgs/${shop.slug}/store/${path}`, {
    headers: { 'x-publishable-api-key': shop.publishableKey, 'x-forwarded-for': ip },
    body,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function readyCarts(t: TestApp, shop: Shop, variants: number[], optionId: number, count: number) {
  const carts: { id: number; ip: string }[] = [];
  for (let i = 0; i < count; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const { cart } = await shopper(t, shop, ip, 'POST', 'carts', {
      country_code: 'fr',
      email: `shopper${i}@bench.example`,
      items: [{ variant_id: variants[i % variants.length], quantity: 1 }],
    });
    await shopper(t, shop, ip, 'PATCH', `carts/${cart.id}`, { shipping_address: ADDRESS });
    await shopper(t, shop, ip, 'POST', `carts/${cart.id}/shipping-methods`, { option_id: optionId });
    await shopper(t, shop, ip, 'POST', `carts/${cart.id}/payment-sessions`, { provider: 'manual' });
    carts.push({ id: cart.id as number, ip });
  }
  return carts;
}

export async function runCommerce(
  options: { rounds: number; seconds: number; connections: number; orders: number; concurrency: number },
  log: (line: string) => void,
): Promise<CommerceResult> {
  const t = await startTestApp({
    env: { LOG_LEVEL: 'silent', TRUST_PROXY: 'true', LIMITS_EXEMPT: '0.0.0.0/0,::/0' },
  });
  try {
    const { shop, variants, optionId } = await seedShop(t);
    const products = `${t.url}/api/v1/orgs/${shop.slug}/store/products?limit=20`;
    const locations = `${t.url}/api/v1/locations`;
    const pk = { 'x-publishable-api-key': shop.publishableKey };
    for (const [url, headers] of [
      [products, pk],
      [locations, {}],
    ] as const)
      await load(url, headers, 2, options.connections);
    const rounds: CommerceRound[] = [];
    for (let i = 0; i < options.rounds; i++) {
      for (const [route, url, headers] of [
        ['products', products, pk],
        ['locations', locations, {}],
      ] as const) {
        const r = await load(url, headers, options.seconds, options.connections);
        rounds.push({ route, rps: r.requests.average, p99Ms: r.latency.p99, non2xx: r.non2xx });
        log(
          `commerce: ${route} ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
        );
      }
    }
    const productsRps = median(rounds.filter((r) => r.route === 'products').map((r) => r.rps));
    const locationsRps = median(rounds.filter((r) => r.route === 'locations').map((r) => r.rps));

    log(`commerce: making ${options.orders} carts ready to complete`);
    const carts = await readyCarts(t, shop, variants, optionId, options.orders);
    let next = 0;
    let failed = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < carts.length) {
          const cart = carts[next++]!;
          const res = await t.request('POST', `/api/v1/orgs/${shop.slug}/store/carts/${cart.id}/complete`, {
            headers: { ...pk, 'x-forwarded-for': cart.ip },
            body: {},
          });
          if (res.status !== 200) failed++;
        }
      }),
    );
    const completionSeconds = (performance.now() - started) / 1000;
    const ordersPerSecond = (carts.length - failed) / completionSeconds;
    log(
      `commerce: ${carts.length - failed} orders in ${completionSeconds.toFixed(2)} s, ${ordersPerSecond.toFixed(0)}/s`,
    );
    return {
      database: process.env.DATABASE_URL ? 'postgres' : 'embedded',
      rounds,
      productsRps,
      locationsRps,
      ratio: productsRps / locationsRps,
      orders: carts.length,
      concurrency: options.concurrency,
      completionSeconds,
      ordersPerSecond,
      failedCompletions: failed,
    };
  } finally {
    await t.close();
  }
}
