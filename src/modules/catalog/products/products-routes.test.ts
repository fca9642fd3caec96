/**
 * The catalogue over real HTTP (embedded database or PostgreSQL): the shipped catalogue seeded at
 * start, every product field, filters and paging bounds, availability from stock and capacity, the
 * availability route, and imports that change everything or nothing.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { importCatalogFileText } from '../index.ts';
import { SHIPPED_CATALOG_DIR } from '../catalog-files/shipped-catalog.ts';

const shipped = (name: string) => JSON.parse(readFileSync(`${SHIPPED_CATALOG_DIR}${name}`, 'utf8'));

describe('catalogue: products and availability', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(async () => t?.close());

  const get = async (path: string) => t.request('GET', `/api/v1${path}`);
  const byName = (list: { name: string }[], name: string) => list.find((p) => p.name === name) as any; // eslint-disable-line @typescript-eslint/no-explicit-any

  it('lists the listed products in catalogue order, no token, every field typed', async () => {
    const res = await get('/products/');
    expect(res.status).toBe(200);
    const slugs = res.body.map((p: { slug: string }) => p.slug);
    expect(slugs.slice(0, 4)).toEqual(['dns-free', 'dns-pro', 'smtp-relay-free', 'smtp-relay-business']);
    expect(slugs).not.toContain('cloud-s0'); // retired
    const s1 = byName(res.body, 'Cloud S1');
    expect(s1).toEqual({
      id: 10,
      name: 'Cloud S1',
      slug: 'cloud-s1',
      description: expect.any(String),
      group_name: 'Cloud Compute',
      module_name: 'vps',
      hardware_tier_id: 1,
      hardware_tier: {
        id: 1,
        slug: 'standard',
        name: 'Standard',
        code: 'STD',
        description: expect.any(String),
      },
      status: 'active',
      config_schema: null,
      sort_order: 100,
      stock_limit: null,
      metadata: { vcpus: 1, memory_mb: 1024, disk_gb: 25, traffic_tb: 1 },
      pricing: [
        {
          id: 10,
          product_id: 10,
          name: 'Hourly',
          billing_cycle: 'hourly',
          price: 0.0068,
          setup_fee: 0,
          currency: 'EUR',
          is_active: true,
          sort_order: 0,
          metadata: null,
          created_at: expect.any(String),
        },
        expect.objectContaining({ id: 11, price: 4.5, billing_cycle: 'monthly' }),
        expect.objectContaining({ id: 12, price: 48.6, billing_cycle: 'annually' }),
      ],
      config_options: [
        {
          id: 10,
          product_id: 10,
          field_name: 'os_template',
          label: 'Operating system',
          field_type: 'select',
          options: { values: ['debian-12', 'ubuntu-24.04', 'rocky-9', 'alpine-3.20'] },
          default_value: 'debian-12',
          required: true,
          price_modifier: 0,
          sort_order: 0,
        },
        expect.objectContaining({ field_name: 'hostname', field_type: 'text', required: true }),
        expect.objectContaining({ field_name: 'backups', field_type: 'boolean', price_modifier: 0.9 }),
      ],
      // No cluster configured (no PVE_URL): in stock and placeable, but not orderable (an order answers 409).
      is_orderable_now: false,
      stock_status: 'in_stock',
      availability_reason: 'not_configured',
      group_is_orderable_now: false,
      group_stock_status: 'in_stock',
      locations: expect.any(Array),
      created_at: expect.any(String),
    });
    // Locations in the PoPs' order; LHR has 1.5 GB of standard memory left: S1 fits, S2 does not.
    expect(s1.locations.map((l: { code: string }) => l.code)).toEqual([
      'IAD',
      'SJC',
      'FRA',
      'AMS',
      'LHR',
      'SIN',
    ]);
    expect(s1.locations.find((l: { code: string }) => l.code === 'LHR')).toEqual({
      id: expect.any(Number),
      code: 'LHR',
      name: expect.any(String),
      country_code: 'GB',
      available: true,
      orderable: false,
      reason: null,
    });
    const s2 = byName(res.body, 'Cloud S2');
    expect(s2.locations.find((l: { code: string }) => l.code === 'LHR')).toMatchObject({
      available: false,
      orderable: false,
      reason: 'insufficient_memory',
    });
    // Not bound to a location: DNS hosting.
    expect(byName(res.body, 'DNS Hosting Free')).toMatchObject({
      locations: [],
      is_orderable_now: true,
      pricing: [expect.objectContaining({ billing_cycle: 'free', price: 0 })],
      config_options: [expect.objectContaining({ field_name: 'max_zones', default_value: '3' })],
    });
  });

  it('says not_provisioned_yet for the products of a module no provisioner serves, not_configured for object storage without a gateway and VPS plans without a cluster', async () => {
    const res = await get('/products/');
    const byModule = new Map<string, [boolean, string | null]>();
    for (const p of res.body as {
      module_name: string;
      is_orderable_now: boolean;
      availability_reason: string;
    }[])
      byModule.set(p.module_name, [p.is_orderable_now, p.availability_reason]);
    expect(Object.fromEntries(byModule)).toEqual({
      dns_hosting: [true, null],
      smtp_relay: [true, null],
      vps: [false, 'not_configured'],
      container: [false, 'not_provisioned_yet'],
      game_server: [true, null],
      object_storage: [false, 'not_configured'],
    });
    expect((await get('/products/40')).body).toMatchObject({
      module_name: 'object_storage',
      is_orderable_now: false,
      availability_reason: 'not_configured',
    });
  });

  it('filters by group (any case), tier slug and tier id', async () => {
    const names = async (q: string) =>
      (await get(`/products/?${q}`)).body.map((p: { slug: string }) => p.slug);
    expect(await names('group=cloud%20COMPUTE')).toEqual([
      'cloud-trial',
      'cloud-s1',
      'cloud-s2',
      'cloud-p2',
      'cloud-d4',
    ]);
    expect(await names('hardware_tier=performance')).toEqual(['cloud-p2', 'game-minecraft-4g']);
    expect(await names('hardware_tier_id=3')).toEqual(['cloud-d4']);
    expect(await names('group=nothing')).toEqual([]);
  });

  it('pages with page/per_page 100/200; out of bounds is 422', async () => {
    const all = (await get('/products/')).body;
    expect(all.length).toBeGreaterThan(5);
    expect((await get('/products/?per_page=200')).status).toBe(200);
    for (const q of ['per_page=201', 'per_page=0', 'page=0'])
      expect((await get(`/products/?${q}`)).status).toBe(422);
    const second = (await get('/products/?page=2&per_page=3')).body.map((p: { id: number }) => p.id);
    expect(second).toEqual(all.slice(3, 6).map((p: { id: number }) => p.id));
    expect((await get('/products/?page=99')).body).toEqual([]);
  });

  it('answers one product; a retired or unknown one is 404', async () => {
    expect((await get('/products/12')).body).toMatchObject({
      slug: 'cloud-p2',
      hardware_tier: { slug: 'performance' },
    });
    for (const id of [14, 999]) {
      const res = await get(`/products/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Product not found' });
    }
  });

  it('location availability: per location, from capacity, tier and template', async () => {
    const at = async (q: string) =>
      Object.fromEntries(
        (await get(`/locations/availability?${q}`)).body.map((l: { code: string; reason: string | null }) => [
          l.code,
          l.reason,
        ]),
      );
    const vps = await at('module=vps');
    expect(vps.FRA).toBeNull();
    expect(vps.LHR).toBeNull(); // 512 MB and 10 GB fit its 1.5 GB
    expect(vps.NRT).toBe('tier_not_offered');
    expect(vps.MAA).toBe('location_inactive');
    expect((await at('module=vps&memory_mb=2048')).LHR).toBe('insufficient_memory');
    expect((await at('module=vps&memory_mb=1024&disk_gb=100')).LHR).toBe('insufficient_disk');
    const dedicated = await at('module=vps&hardware_tier_id=3');
    expect([dedicated.FRA, dedicated.AMS]).toEqual([null, 'tier_not_offered']);
    // Windows: FRA and IAD only, and at least 4 GB / 60 GB whatever is asked.
    const windows = await at('module=vps&template_id=5');
    expect([windows.FRA, windows.LHR, windows.AMS]).toEqual([
      null,
      'template_not_offered',
      'template_not_offered',
    ]);
    const containers = await at('module=container&memory_mb=1024&disk_mb=10240');
    expect([containers.FRA, containers.SIN]).toEqual([null, null]); // SIN: its performance tier fits
    expect((await at('module=container&hardware_tier_id=1')).SIN).toBe('insufficient_memory');
    const first = (await get('/locations/availability?module=vps')).body[0];
    expect(first).toEqual({
      id: expect.any(Number),
      code: expect.any(String),
      name: expect.any(String),
      country_code: expect.any(String),
      available: expect.any(Boolean),
      reason: null,
    });
    for (const [q, field] of [
      ['', 'module'],
      ['module=dns', 'module'],
      ['module=vps&hardware_tier_id=9', 'hardware_tier_id'],
      ['module=vps&template_id=99', 'template_id'],
      ['module=container&template_id=1', 'template_id'],
    ] as const) {
      const res = await get(`/locations/availability?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.detail[0].loc, q).toEqual(['query', field]);
    }
  });

  it('a capacity import changes the answers; a file with one bad row changes nothing', async () => {
    const capacity = shipped('capacity.json');
    const lhr = capacity.capacity.find((c: { location: string }) => c.location === 'LHR');
    lhr.free_memory_mb = 256;
    const done = await importCatalogFileText(t.node.runtime, JSON.stringify(capacity));
    expect(done).toMatchObject({ ok: true, summary: { kind: 'capacity' } });
    const s1 = (await get('/products/10')).body;
    expect(s1.locations.find((l: { code: string }) => l.code === 'LHR').reason).toBe('insufficient_memory');

    const products = shipped('products.json');
    const before = (await get('/products/')).body;
    products.products[0].name = 'Renamed';
    products.products.at(-1).pricing[0].price = '5,00';
    products.products.at(-1).config_options.push({ ...products.products[0].config_options[0], id: 1 });
    const refused = await importCatalogFileText(t.node.runtime, JSON.stringify(products));
    expect(refused).toEqual({
      ok: false,
      problems: [
        `products[${products.products.length - 1}].pricing[0].price: must match pattern "^(0|[1-9][0-9]{0,7})(\\.[0-9]{1,4})?$"`,
      ],
    });
    products.products.at(-1).pricing[0].price = '5.00';
    const duplicate = await importCatalogFileText(t.node.runtime, JSON.stringify(products));
    expect(duplicate).toEqual({
      ok: false,
      problems: [
        `products[${products.products.length - 1}].config_options[0]: option id 1 repeats products[0].config_options[0]`,
      ],
    });
    expect((await get('/products/')).body).toEqual(before);
    // The capacity file refers to tiers the catalogue has.
    lhr.hardware_tier_id = 7;
    expect(await importCatalogFileText(t.node.runtime, JSON.stringify(capacity))).toEqual({
      ok: false,
      problems: [
        `capacity[${capacity.capacity.indexOf(lhr)}].hardware_tier_id: 7 is no hardware tier of the catalogue`,
      ],
    });
  });

  it('an import replaces its part: changed, added and removed products', async () => {
    const products = shipped('products.json');
    products.products = products.products.filter((p: { slug: string }) => p.slug !== 'storage-250');
    products.products[1].pricing[0].price = '4.25';
    products.products[1].slug = 'dns-plus';
    products.products[0].slug = 'dns-pro'; // slugs may move between ids in one file
    const done = await importCatalogFileText(t.node.runtime, JSON.stringify(products));
    expect(done).toMatchObject({ ok: true, summary: { removed: { products: 1 } } });
    const after = (await get('/products/')).body;
    expect(after.map((p: { slug: string }) => p.slug).slice(0, 2)).toEqual(['dns-pro', 'dns-plus']);
    expect(after[1].pricing[0].price).toBe(4.25);
    expect((await get('/products/40')).status).toBe(404);
    expect(
      await importCatalogFileText(t.node.runtime, JSON.stringify(shipped('products.json'))),
    ).toMatchObject({
      ok: true,
    });
  });
});
