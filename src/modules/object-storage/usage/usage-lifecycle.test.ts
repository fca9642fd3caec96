/**
 * Object storage's hourly meter, usage route, plan quota and lifecycle against a real one-node
 * Ceph RADOS Gateway with a moved clock: the plan's quota refuses an upload beyond it
 * (QuotaExceeded); the meter writes a reading per service and hour (bytes and objects stored,
 * transfer and requests since the reading before) once per hour, shown by GET /usage; a suspended
 * service's key is refused by the gateway and accepted again, data intact, once lifted; a
 * cancelled service is removed at the gateway at once without grace, or when the clock passes its
 * grace.
 */
import {
  CreateBucketCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productsWithCopy } from '../../../testing/catalog-fixture.ts';
import { eventually } from '../../../testing/eventually.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { OS, startStorageApp, type StorageFixture } from '../../../testing/object-storage-fixture.ts';
import { importCatalogFileText } from '../../catalog/index.ts';
import type { ServicesModule } from '../../services/index.ts';
import { RgwAdminClient, RgwAdminError } from '../index.ts';
import type { ObjectStorageModule } from '../object-storage-module.ts';
import type { ObjectStorageTables } from '../object-storage-tables.ts';
import { tablesOf } from '../../../kernel/runtime/runtime.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const KIB = 1024;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** A copy of the trial plan with a quota of 1 MiB. */
const TINY = { product_id: 9041, pricing_id: 9041 };
/** A copy of the trial plan keeping a cancelled service's data for 2 days. */
const GRACE = { product_id: 9042, pricing_id: 9042 };
const floorHourOf = (ms: number): Date => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS);
const STAFF = { userId: null, realm: 'staff', ip: '192.0.2.9' } as const;

/** What a promise rejected with (it must reject). */
const refusal = async (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );

/** The gateway's error code of a refusal (S3 or admin ops). */
const codeOf = (e: unknown): string =>
  e instanceof RgwAdminError ? e.code : e instanceof S3ServiceException ? e.name : String(e);

describe.skipIf(process.env.DATABASE_URL === undefined)('object storage usage, quota and lifecycle', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 10, 12, 20));
  let f: StorageFixture;
  let admin: RgwAdminClient;
  let meter: ObjectStorageModule;
  let services: ServicesModule;
  const accounts: Record<string, { token: string; email: string }> = {};

  const signUp = async (who: string) => (accounts[who] = await f.t.signUp());
  /** Moves the clock; access tokens live minutes, so everyone signs in again. */
  const moveTo = async (ms: number) => {
    clock.set(ms);
    for (const a of Object.values(accounts)) a.token = await f.t.signIn(a.email);
  };
  const order = async (who: string, plan: { product_id: number; pricing_id: number }) => {
    const res = await f.t.request('POST', '/api/v1/services/order', {
      token: accounts[who]!.token,
      body: plan,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('active');
    return res.body.id as number;
  };
  const owner = (serviceId: number) => ({ tenant: `svc${serviceId}`, uid: 'owner' });
  /** An S3 client with the service's default key, as the gateway holds it. */
  const s3Of = async (serviceId: number): Promise<S3Client> => {
    const [key] = (await admin.getUser(owner(serviceId))).keys;
    return f.s3(key!);
  };
  const put = (s3: S3Client, bucket: string, key: string, size: number) =>
    s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(size, 'x') }));
  /** What the gateway's usage log holds of the service's owner so far, summed. */
  const logged = async (serviceId: number) => {
    const sum = { ops: 0, received: 0, sent: 0 };
    for (const u of (await admin.usage(owner(serviceId))).summary)
      for (const c of u.categories) {
        sum.ops += c.ops;
        sum.received += c.bytes_received;
        sum.sent += c.bytes_sent;
      }
    return sum;
  };
  const usage = (who: string, serviceId: number, query = '') =>
    f.t.request('GET', `${OS}/${serviceId}/usage${query}`, { token: accounts[who]!.token });

  beforeAll(async () => {
    f = await startStorageApp({ clock });
    admin = new RgwAdminClient({
      url: f.gw.s3Url,
      accessKey: f.gw.adminAccessKey,
      secretKey: f.gw.adminSecretKey,
    });
    meter = f.t.node.modules.find((m) => m.name === 'object-storage') as ObjectStorageModule;
    services = f.t.node.modules.find((m) => m.name === 'services') as ServicesModule;
    const tiny = productsWithCopy(41, {
      id: TINY.product_id,
      slug: 'storage-tiny',
      pricingId: TINY.pricing_id,
      metadata: { quota_bytes: 1024 * KIB },
    });
    const both = productsWithCopy(41, {
      id: GRACE.product_id,
      slug: 'storage-grace',
      pricingId: GRACE.pricing_id,
      metadata: { grace_days: 2 },
    });
    const file = JSON.parse(tiny);
    file.products.push(JSON.parse(both).products.find((p: { id: number }) => p.id === GRACE.product_id));
    expect(await importCatalogFileText(f.t.node.runtime, JSON.stringify(file))).toMatchObject({ ok: true });
  }, 180_000);

  afterAll(async () => {
    await f?.close();
  }, 120_000);

  it("applies the plan's quota at the gateway: a second upload of 600 KiB past 1 MiB is refused", async () => {
    await signUp('quota');
    const id = await order('quota', TINY);
    expect((await admin.getUser(owner(id))).user_quota).toMatchObject({
      enabled: true,
      max_size: 1024 * KIB,
    });
    const s3 = await s3Of(id);
    await s3.send(new CreateBucketCommand({ Bucket: 'photos' }));
    await put(s3, 'photos', 'one.bin', 600 * KIB);
    const refused = await refusal(put(s3, 'photos', 'two.bin', 600 * KIB));
    expect(codeOf(refused)).toBe('QuotaExceeded');
    expect((refused as S3ServiceException).$metadata.httpStatusCode).toBe(403);
    expect((await admin.getUser(owner(id), { stats: true })).stats).toMatchObject({
      num_objects: 1,
      size: 600 * KIB,
    });
  });

  it('meters each hour once: stored bytes and objects, transfer since the reading before; GET /usage shows the points', async () => {
    await signUp('meter');
    const id = await order('meter', { product_id: 41, pricing_id: 25 });
    const s3 = await s3Of(id);
    await s3.send(new CreateBucketCommand({ Bucket: 'logs' }));
    for (const [key, size] of [
      ['a', 1000],
      ['b', 2000],
      ['c', 3000],
    ] as const)
      await put(s3, 'logs', key, size);
    // The gateway writes its usage log within a second or two: the bucket and the three uploads.
    await eventually(async () => {
      const log = await logged(id);
      return log.ops >= 4 && log.received >= 6000;
    }, 20_000);

    const t0 = clock.now();
    const first = await meter.meterHour(new Date(t0));
    expect(first).toMatchObject({ hour: '2026-03-10T12:00:00.000Z', ran: true });
    expect(first.services).toBeGreaterThanOrEqual(1);
    const one = await usage('meter', id);
    expect(one.status, one.text).toBe(200);
    expect(one.body.points).toHaveLength(1);
    const [p1] = one.body.points;
    expect(p1).toMatchObject({ at: '2026-03-10T12:00:00.000Z', bytes: 6000, objects: 3 });
    expect(p1.bytes_in).toBeGreaterThanOrEqual(6000);
    expect(p1.requests).toBeGreaterThanOrEqual(4);

    expect(await meter.meterHour(new Date(t0 + 10 * 60_000))).toMatchObject({ ran: false, services: 0 });
    expect((await usage('meter', id)).body.points).toHaveLength(1);

    const got = await s3.send(new GetObjectCommand({ Bucket: 'logs', Key: 'c' }));
    expect((await got.Body!.transformToByteArray()).length).toBe(3000);
    await eventually(async () => (await logged(id)).sent >= 3000, 20_000);
    await moveTo(t0 + HOUR_MS);
    expect(await meter.meterHour(new Date(clock.now()))).toMatchObject({
      hour: '2026-03-10T13:00:00.000Z',
      ran: true,
    });

    const two = await usage('meter', id, `?from=2026-03-10T00:00:00Z`);
    expect(two.status, two.text).toBe(200);
    expect(two.body).toMatchObject({ service_id: id, from: '2026-03-10T00:00:00.000Z' });
    expect(two.body.points.map((p: { at: string }) => p.at)).toEqual([
      '2026-03-10T12:00:00.000Z',
      '2026-03-10T13:00:00.000Z',
    ]);
    const p2 = two.body.points[1];
    expect(p2).toMatchObject({ bytes: 6000, objects: 3 });
    // Only what happened since the first reading: the download, not the uploads again.
    expect(p2.bytes_out).toBeGreaterThanOrEqual(3000);
    expect(p2.bytes_in).toBeLessThan(1000);
    expect(p2.requests).toBeGreaterThanOrEqual(1);
    expect(p2.requests).toBeLessThan(p1.requests);
  });

  it('two readings of one hour at once: one reads every service, the other does nothing', async () => {
    await signUp('peer');
    const id = await order('peer', { product_id: 41, pricing_id: 25 });
    await moveTo(clock.now() + HOUR_MS);
    const both = await Promise.all([0, 1].map(() => meter.meterHour(new Date(clock.now()))));
    expect(both.map((r) => r.ran).sort()).toEqual([false, true]);
    const read = await tablesOf<ObjectStorageTables>(f.t.node.runtime)
      .selectFrom('object_storage_usage')
      .select('service_id')
      .where('hour', '=', floorHourOf(clock.now()))
      .execute();
    const ids = read.map((r) => Number(r.service_id));
    expect(ids).toContain(id);
    expect(both.find((r) => r.ran)!.services).toBe(ids.length);
  });

  it('readings of two hours at once count an upload once: the one that loses the mark is made again later', async () => {
    await signUp('race');
    const id = await order('race', { product_id: 41, pricing_id: 25 });
    await meter.meterHour(new Date(clock.now()));
    const s3 = await s3Of(id);
    await s3.send(new CreateBucketCommand({ Bucket: 'race' }));
    await put(s3, 'race', 'r', 50_000);
    await eventually(async () => (await logged(id)).received >= 50_000, 20_000);
    const [h1, h2] = [clock.now() + HOUR_MS, clock.now() + 2 * HOUR_MS];
    await moveTo(h2);
    await Promise.all([h1, h2].map((h) => meter.meterHour(new Date(h))));
    await meter.meterHour(new Date(h2));
    const points = (await usage('race', id, `?from=${floorHourOf(h1).toISOString()}`)).body.points as {
      at: string;
      bytes_in: number;
    }[];
    expect(points.map((p) => p.at)).toContain(floorHourOf(h2).toISOString());
    const bytesIn = points.reduce((n, p) => n + p.bytes_in, 0);
    expect(bytesIn).toBeGreaterThanOrEqual(50_000);
    expect(bytesIn).toBeLessThan(100_000);
  });

  it('usage: another account sees 404; from after to, or a span over 93 days, is a 422 naming from', async () => {
    await signUp('usage');
    await signUp('other');
    const id = await order('usage', { product_id: 41, pricing_id: 25 });
    expect((await usage('other', id)).status).toBe(404);
    const empty = await usage('usage', id, '?to=2026-03-10T12:00:00Z');
    expect(empty.body).toEqual({
      service_id: id,
      from: '2026-03-09T12:00:00.000Z',
      to: '2026-03-10T12:00:00.000Z',
      points: [],
    });
    const reversed = await usage('usage', id, '?from=2026-03-10T12:00:00Z&to=2026-03-10T11:00:00Z');
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail[0].loc).toEqual(['query', 'from']);
    const long = await usage('usage', id, '?from=2025-12-01T00:00:00Z&to=2026-03-10T00:00:00Z');
    expect(long.status).toBe(422);
    expect(long.body.detail[0].loc).toEqual(['query', 'from']);
    const bad = await usage('usage', id, '?from=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'from']);
  });

  it('suspend refuses the key at the gateway, unsuspend accepts it again with the data; cancel without grace removes the tenant', async () => {
    await signUp('life');
    const id = await order('life', { product_id: 41, pricing_id: 25 });
    const s3 = await s3Of(id);
    await s3.send(new CreateBucketCommand({ Bucket: 'keep' }));
    await put(s3, 'keep', 'k', 500);
    expect((await admin.bucket(owner(id).tenant, 'keep')).usage['rgw.main']).toMatchObject({
      num_objects: 1,
    });

    await services.lifecycle.suspend(id, 'Abuse report', STAFF);
    const service = await f.t.request('GET', `/api/v1/services/${id}`, { token: accounts.life!.token });
    expect(service.body.status).toBe('suspended');
    expect((await admin.getUser(owner(id))).suspended).toBe(1);
    // The gateway's cache of the key's user takes a moment to hear of the suspension.
    const refused = await eventually(
      () => refusal(s3.send(new GetObjectCommand({ Bucket: 'keep', Key: 'k' }))),
      5_000,
    );
    expect(['UserSuspended', 'AccessDenied']).toContain(codeOf(refused));
    expect((refused as S3ServiceException).$metadata.httpStatusCode).toBe(403);

    await services.lifecycle.unsuspend(id, STAFF);
    const back = await eventually(() => s3.send(new GetObjectCommand({ Bucket: 'keep', Key: 'k' })), 5_000);
    expect(Buffer.from(await back.Body!.transformToByteArray()).equals(Buffer.alloc(500, 'x'))).toBe(true);

    const cancelled = await f.t.request('POST', `/api/v1/services/${id}/cancel`, {
      token: accounts.life!.token,
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe('terminated');
    expect(codeOf(await refusal(admin.getUser(owner(id))))).toBe('NoSuchUser');
    expect(codeOf(await refusal(admin.bucket(owner(id).tenant, 'keep')))).toBe('NoSuchBucket');
    expect(['InvalidAccessKeyId', 'AccessDenied']).toContain(
      codeOf(await refusal(s3.send(new GetObjectCommand({ Bucket: 'keep', Key: 'k' })))),
    );
    const after = await f.t.request('GET', `/api/v1/services/${id}`, { token: accounts.life!.token });
    expect(after.body.status).toBe('terminated');
  });

  it('cancel with days of grace keeps the data (refused) until the clock passes the grace; then the meter purges it', async () => {
    await signUp('grace');
    const id = await order('grace', GRACE);
    const s3 = await s3Of(id);
    await s3.send(new CreateBucketCommand({ Bucket: 'old' }));
    await put(s3, 'old', 'o', 700);
    const cancelled = await f.t.request('POST', `/api/v1/services/${id}/cancel`, {
      token: accounts.grace!.token,
    });
    expect(cancelled.body.status, cancelled.text).toBe('terminated');
    const refused = await eventually(
      () => refusal(s3.send(new GetObjectCommand({ Bucket: 'old', Key: 'o' }))),
      5_000,
    );
    expect(codeOf(refused)).toMatch(/UserSuspended|AccessDenied/);

    const start = clock.now();
    await moveTo(start + DAY_MS);
    await meter.meterHour(new Date(clock.now()));
    const kept = await admin.getUser(owner(id), { stats: true });
    expect(kept).toMatchObject({ suspended: 1, stats: { num_objects: 1, size: 700 } });

    await moveTo(start + 2 * DAY_MS + HOUR_MS);
    await meter.meterHour(new Date(clock.now()));
    expect(codeOf(await refusal(admin.getUser(owner(id))))).toBe('NoSuchUser');
    expect(codeOf(await refusal(admin.bucket(owner(id).tenant, 'old')))).toBe('NoSuchBucket');
    expect(await meter.purgeDue()).toBe(0);
    const after = await f.t.request('GET', `/api/v1/services/${id}`, { token: accounts.grace!.token });
    expect(after.body.status).toBe('terminated');
  });
});
