import {
  CreateMultipartUploadCommand,
  HeadBucketCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { OS, startStorageApp, type StorageFixture } from '../../../testing/object-storage-fixture.ts';
import { RgwAdminClient } from '../index.ts';

// The pinned SDK runs on Node 20; it only warns that its releases of 2027 will not.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

interface Item {
  key: string;
  size: number | null;
  last_modified: string | null;
  etag: string | null;
  is_prefix: boolean;
}

describe.skipIf(process.env.DATABASE_URL === undefined)('object storage: buckets and objects', () => {
  const clock = new ManualClock(Date.now());
  let f: StorageFixture;
  let token: string;
  let other: string;
  let sid: number;
  let s3: S3Client;
  const loc: Record<string, number> = {};
  const ids: Record<string, number> = {};

  /** The service's default key, as the gateway tells it (its owner user's key). */
  async function ownerS3(serviceId: number): Promise<S3Client> {
    const admin = new RgwAdminClient({
      url: f.gw.s3Url,
      region: f.gw.region,
      accessKey: f.gw.adminAccessKey,
      secretKey: f.gw.adminSecretKey,
    });
    const user = await admin.getUser({ tenant: `svc${serviceId}`, uid: 'owner' });
    return f.s3(user.keys[0]!);
  }

  const put = (bucket: string, key: string, body: string) =>
    s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));

  const listing = async (bucketId: number, query: string) => {
    const res = await f.t.request('GET', `${OS}/${sid}/buckets/${bucketId}/objects${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body as { items: Item[]; prefix: string; next_token: string | null };
  };

  beforeAll(async () => {
    f = await startStorageApp({ clock });
    token = (await f.t.signUp()).token;
    other = (await f.t.signUp()).token;
    sid = await f.orderTrial(token);
    s3 = await ownerS3(sid);
    const locations = (await f.t.request('GET', '/api/v1/locations?active_only=false')).body as {
      id: number;
      code: string;
    }[];
    for (const l of locations) loc[l.code] = l.id;
  }, 120_000);

  afterAll(async () => {
    await f?.close();
  });

  it('refuses names S3 does not allow, naming body.name', async () => {
    for (const name of [
      'ab',
      'Photos',
      'photos-',
      '-photos',
      '192.168.1.20',
      'a..b',
      'a_b',
      'x'.repeat(64),
    ]) {
      const res = await f.t.request('POST', `${OS}/${sid}/buckets`, { token, body: { name } });
      expect(res.status, name).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'name']);
    }
  });

  it('creates a bucket in the home region, then refuses the same name', async () => {
    const res = await f.t.request('POST', `${OS}/${sid}/buckets`, { token, body: { name: 'photos' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'photos',
      region: 'FRA',
      location_id: loc.FRA,
      quota_bytes: null,
      used_bytes: 0,
      object_count: 0,
      deleted_at: null,
      endpoint: f.gw.s3Url,
      url: `${f.gw.s3Url}/svc${sid}:photos`,
    });
    ids.photos = res.body.id;
    await s3.send(new HeadBucketCommand({ Bucket: 'photos' }));
    const again = await f.t.request('POST', `${OS}/${sid}/buckets`, { token, body: { name: 'photos' } });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Bucket already exists');
  });

  it('creates a bucket at another region by its location, refuses a location without storage', async () => {
    const notRegion = Object.entries(loc).find(([code]) => code !== 'FRA' && code !== 'IAD');
    expect(notRegion).toBeDefined();
    for (const locationId of [notRegion![1], 999_999]) {
      const res = await f.t.request('POST', `${OS}/${sid}/buckets`, {
        token,
        body: { name: 'elsewhere', location_id: locationId },
      });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'location_id']);
    }
    const res = await f.t.request('POST', `${OS}/${sid}/buckets`, {
      token,
      body: { name: 'logs', location_id: loc.IAD },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'logs', region: 'IAD', location_id: loc.IAD });
    ids.logs = res.body.id;
    await s3.send(new HeadBucketCommand({ Bucket: 'logs' }));
  });

  it('stops at the plan’s bucket limit and lists the buckets', async () => {
    const res = await f.t.request('POST', `${OS}/${sid}/buckets`, { token, body: { name: 'third' } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Bucket limit reached (2)');
    const list = await f.t.request('GET', `${OS}/${sid}/buckets`, { token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, bucket_prefix: `svc${sid}:`, max_buckets: 2 });
    expect(list.body.items.map((b: { name: string }) => b.name)).toEqual(['photos', 'logs']);
  });

  it('lists folders first, then objects; a prefix; pages with next_token; flat', async () => {
    const keys = [
      'docs/a.txt',
      'docs/b.txt',
      'img/x/y.png',
      'odd & <name> "q" é.txt',
      ...Array.from({ length: 22 }, (_, i) => `file-${String(i).padStart(2, '0')}`),
    ];
    for (const k of keys) await put('photos', k, `body of ${k}`);

    const top = await listing(ids.photos!, '');
    expect(top.prefix).toBe('');
    expect(top.next_token).toBeNull();
    expect(top.items.slice(0, 2)).toEqual([
      { key: 'docs/', size: null, last_modified: null, etag: null, is_prefix: true },
      { key: 'img/', size: null, last_modified: null, etag: null, is_prefix: true },
    ]);
    expect(top.items).toHaveLength(25);
    expect(top.items.map((i) => i.key)).toContain('odd & <name> "q" é.txt');
    const first = top.items[2]!;
    expect(first).toMatchObject({ key: 'file-00', size: 'body of file-00'.length, is_prefix: false });
    expect(first.etag).toBe(createHash('md5').update('body of file-00').digest('hex'));
    expect(new Date(first.last_modified!).toISOString()).toBe(first.last_modified);

    const docs = await listing(ids.photos!, '?prefix=docs/');
    expect(docs.prefix).toBe('docs/');
    expect(docs.items.map((i) => i.key)).toEqual(['docs/a.txt', 'docs/b.txt']);

    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const q: string = `?flat=true&max_keys=10${next === null ? '' : `&token=${encodeURIComponent(next)}`}`;
      const page = await listing(ids.photos!, q);
      expect(page.items.length).toBeLessThanOrEqual(10);
      expect(page.items.every((i) => !i.is_prefix)).toBe(true);
      seen.push(...page.items.map((i) => i.key));
      next = page.next_token;
      pages++;
    } while (next !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...keys].sort());
  });

  it('refuses max_keys out of 1..1000', async () => {
    for (const n of [0, 1001]) {
      const res = await f.t.request('GET', `${OS}/${sid}/buckets/${ids.photos}/objects?max_keys=${n}`, {
        token,
      });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', 'max_keys']);
    }
  });

  it('deletes keys in bulk, a missing key counted as deleted', async () => {
    const res = await f.t.request('DELETE', `${OS}/${sid}/buckets/${ids.photos}/objects`, {
      token,
      body: { keys: ['file-00', 'file-01', 'no-such-key'] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: 3, errors: [] });
    const flat = await listing(ids.photos!, '?flat=true');
    expect(flat.items.map((i) => i.key)).not.toContain('file-00');
    expect(flat.items).toHaveLength(24);
    for (const keys of [[], Array.from({ length: 1001 }, (_, i) => `k${i}`)]) {
      const bad = await f.t.request('DELETE', `${OS}/${sid}/buckets/${ids.photos}/objects`, {
        token,
        body: { keys },
      });
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', 'keys']);
    }
  });

  it('shows what a bucket holds, read from the gateway at most once a minute', async () => {
    const before = await f.t.request('GET', `${OS}/${sid}/buckets/${ids.photos}`, { token });
    expect(before.status).toBe(200);
    // The listing of buckets read the stats earlier, before any object: that reading is kept.
    expect(before.body.object_count).toBe(0);
    clock.advance(61_000);
    const after = await f.t.request('GET', `${OS}/${sid}/buckets/${ids.photos}`, { token });
    expect(after.body.object_count).toBe(24);
    expect(after.body.used_bytes).toBeGreaterThan(24 * 'body of file-00'.length - 1);
    expect(after.body.usage_measured_at).toBe(new Date(clock.now()).toISOString());
  });

  it('refuses to delete a bucket holding objects or an unfinished upload', async () => {
    const res = await f.t.request('DELETE', `${OS}/${sid}/buckets/${ids.photos}`, { token });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('Bucket is not empty');
    await s3.send(new CreateMultipartUploadCommand({ Bucket: 'logs', Key: 'big.bin' }));
    const logs = await f.t.request('DELETE', `${OS}/${sid}/buckets/${ids.logs}?force=false`, { token });
    expect(logs.status).toBe(409);
  });

  it('force-deletes a bucket with versions, delete markers and an unfinished upload', async () => {
    await s3.send(
      new PutBucketVersioningCommand({ Bucket: 'logs', VersioningConfiguration: { Status: 'Enabled' } }),
    );
    await put('logs', 'v.txt', 'one');
    await put('logs', 'v.txt', 'two');
    await put('logs', 'w.txt', 'three');
    const up = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'logs', Key: 'part.bin' }));
    await s3.send(
      new UploadPartCommand({
        Bucket: 'logs',
        Key: 'part.bin',
        UploadId: up.UploadId,
        PartNumber: 1,
        Body: 'x',
      }),
    );
    const marker = await f.t.request('DELETE', `${OS}/${sid}/buckets/${ids.logs}/objects`, {
      token,
      body: { keys: ['w.txt'] },
    });
    expect(marker.body).toEqual({ deleted: 1, errors: [] });

    const res = await f.t.request('DELETE', `${OS}/${sid}/buckets/${ids.logs}?force=true`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true, bucket: 'logs', region: 'IAD', objects_destroyed: 3 });
    await expect(s3.send(new HeadBucketCommand({ Bucket: 'logs' }))).rejects.toThrow();
    expect((await f.t.request('GET', `${OS}/${sid}/buckets/${ids.logs}`, { token })).status).toBe(404);
    const list = await f.t.request('GET', `${OS}/${sid}/buckets`, { token });
    expect(list.body.total).toBe(1);
  });

  it('deletes an empty bucket without force; its name can be used again', async () => {
    const made = await f.t.request('POST', `${OS}/${sid}/buckets`, { token, body: { name: 'scratch' } });
    expect(made.status).toBe(201);
    const res = await f.t.request('DELETE', `${OS}/${sid}/buckets/${made.body.id}`, { token });
    expect(res.body).toEqual({ ok: true, bucket: 'scratch', region: 'FRA', objects_destroyed: 0 });
    const again = await f.t.request('POST', `${OS}/${sid}/buckets`, { token, body: { name: 'scratch' } });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(made.body.id);
  });

  it('answers 404 for another account’s service and bucket, 422 for an id that is not an integer', async () => {
    const b = ids.photos!;
    const routes: [string, string, unknown?][] = [
      ['GET', `${OS}/${sid}/buckets`],
      ['POST', `${OS}/${sid}/buckets`, { name: 'mine' }],
      ['GET', `${OS}/${sid}/buckets/${b}`],
      ['DELETE', `${OS}/${sid}/buckets/${b}?force=true`],
      ['GET', `${OS}/${sid}/buckets/${b}/objects`],
      ['DELETE', `${OS}/${sid}/buckets/${b}/objects`, { keys: ['docs/a.txt'] }],
    ];
    for (const [method, path, body] of routes) {
      const res = await f.t.request(method, path, { token: other, ...(body !== undefined ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const own = await f.orderTrial(other);
    for (const path of [`${OS}/${own}/buckets/${b}`, `${OS}/${own}/buckets/${b}/objects`]) {
      expect((await f.t.request('GET', path, { token: other })).status, path).toBe(404);
    }
    expect((await f.t.request('GET', `${OS}/x/buckets`, { token })).status).toBe(422);
    expect((await f.t.request('GET', `${OS}/${sid}/buckets/1.5`, { token })).status).toBe(422);
    // Nothing of the other account's requests reached the bucket.
    expect((await listing(b, '?prefix=docs/')).items).toHaveLength(2);
  });
});
