import { PutObjectCommand, CreateBucketCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { OS, startStorageApp, type StorageFixture } from '../../../testing/object-storage-fixture.ts';
import { RgwAdminClient } from '../gateway/rgw-admin-client.ts';

/** Regions, services and one service, against a real one-node Ceph gateway (PostgreSQL pass only). */
describe.skipIf(process.env.DATABASE_URL === undefined)('object storage: regions and services', () => {
  const clock = new ManualClock(Date.now());
  let f: StorageFixture;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    f = await startStorageApp({ clock });
    alice = (await f.t.signUp()).token;
    bob = (await f.t.signUp()).token;
  }, 120_000);
  afterAll(async () => f?.close());

  it('lists the configured regions as locations with their S3 endpoints', async () => {
    const res = await f.t.request('GET', `${OS}/regions`, { token: alice });
    expect(res.status, res.text).toBe(200);
    const locations = (await f.t.request('GET', '/api/v1/locations')).body as { id: number; code: string }[];
    const idOf = (code: string) => locations.find((l) => l.code === code)!.id;
    expect(res.body).toEqual({
      regions: [
        { id: idOf('FRA'), code: 'FRA', name: expect.any(String), country_code: 'DE', endpoint: f.gw.s3Url },
        { id: idOf('IAD'), code: 'IAD', name: expect.any(String), country_code: 'US', endpoint: f.gw.s3Url },
      ],
    });
  });

  it('answers a service with its tenant, plan limits and what the gateway says it stores (read at most a minute ago)', async () => {
    const id = await f.orderTrial(alice, { label: 'assets' });
    const fra = (await f.t.request('GET', `${OS}/regions`, { token: alice })).body.regions[0];
    const one = await f.t.request('GET', `${OS}/${id}`, { token: alice });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({
      id,
      service_id: id,
      label: 'assets',
      hostname: null,
      status: 'active',
      product_name: 'Object Storage Trial',
      billing_cycle: 'free',
      region: 'FRA',
      location_id: fra.id,
      namespace: `svc${id}`,
      bucket_prefix: `svc${id}:`,
      quota_bytes: 1024 ** 3,
      used_bytes: 0,
      object_count: 0,
      bucket_count: 0,
      key_count: 1,
      overage_per_gb_month: null,
      created_at: expect.any(String),
      next_due_date: null,
      endpoints: [
        { region: 'FRA', endpoint: f.gw.s3Url },
        { region: 'IAD', endpoint: f.gw.s3Url },
      ],
      overage_gb: 0,
      grace_days: 0,
      max_buckets: 2,
      presign_max_seconds: 604800,
    });

    // Bytes written straight to the gateway with the service's key show within a minute.
    const admin = new RgwAdminClient({
      url: f.gw.s3Url,
      accessKey: f.gw.adminAccessKey,
      secretKey: f.gw.adminSecretKey,
    });
    const [key] = (await admin.getUser({ tenant: `svc${id}`, uid: 'owner' })).keys;
    const s3 = f.s3(key!);
    await s3.send(new CreateBucketCommand({ Bucket: 'stats' }));
    await s3.send(new PutObjectCommand({ Bucket: 'stats', Key: 'a.txt', Body: 'x'.repeat(1000) }));
    expect((await f.t.request('GET', `${OS}/${id}`, { token: alice })).body.used_bytes).toBe(0);
    clock.advance(61_000);
    const later = (await f.t.request('GET', `${OS}/${id}`, { token: alice })).body;
    expect(later).toMatchObject({ used_bytes: 1000, object_count: 1 });

    const list = await f.t.request('GET', `${OS}/services`, { token: alice });
    expect(list.status, list.text).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.items[0]).toMatchObject({ id, namespace: `svc${id}`, used_bytes: 1000, key_count: 1 });
    expect(list.body.items[0]).not.toHaveProperty('endpoints');
  });

  it('is 404 for another account, and an account without services lists none', async () => {
    const id = await f.orderTrial(alice);
    expect((await f.t.request('GET', `${OS}/${id}`, { token: bob })).status).toBe(404);
    expect((await f.t.request('GET', `${OS}/services`, { token: bob })).body).toEqual({
      items: [],
      total: 0,
    });
    // A service of another product is not a storage service.
    const dns = await f.t.request('POST', '/api/v1/services/order', {
      token: bob,
      body: { product_id: 1, pricing_id: 1 },
    });
    expect((await f.t.request('GET', `${OS}/${dns.body.id}`, { token: bob })).status).toBe(404);
  });
});
