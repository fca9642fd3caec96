/**
 * S3 keys and presigned URLs against a real one-node Ceph RADOS Gateway: the scope of a key (read
 * only, one bucket) is what the gateway enforces, a revoked key is refused at once, and a presigned
 * URL works from a plain HTTP client without credentials until it expires.
 */
import {
  CreateBucketCommand,
  GetBucketPolicyCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OS, startStorageApp, type StorageFixture } from '../../testing/object-storage-fixture.ts';
import type { ServicesModule } from '../services/index.ts';
import { BucketsRepository } from './storage/buckets-repository.ts';
import { RgwAdminClient } from './gateway/rgw-admin-client.ts';
import { StorageRepository } from './storage/storage-repository.ts';

interface NewKey {
  id: number;
  label: string;
  access_key: string;
  secret_key: string;
  bucket: string | null;
  access: string;
  created_at: string;
}

/** The S3 error code of a call (`AccessDenied`), or 'ok'. */
async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (e) {
    return (e as { Code?: string; name: string }).Code ?? (e as { name: string }).name;
  }
}

describe.skipIf(process.env.DATABASE_URL === undefined)('object storage keys and presigned URLs', () => {
  let f: StorageFixture;
  let admin: RgwAdminClient;
  let buckets: BucketsRepository;

  beforeAll(async () => {
    f = await startStorageApp();
    admin = new RgwAdminClient({
      url: f.gw.s3Url,
      accessKey: f.gw.adminAccessKey,
      secretKey: f.gw.adminSecretKey,
    });
    buckets = new BucketsRepository(f.t.node.runtime.database.db as never);
  }, 120_000);

  afterAll(async () => {
    await f?.close();
  });

  /** An S3 client with the service's default key (read from the gateway: the API never shows it). */
  async function ownerS3(serviceId: number, token: string): Promise<S3Client> {
    const list = await f.t.request('GET', `${OS}/${serviceId}/keys`, { token });
    const accessKey = (list.body as { items: NewKey[] }).items[0]!.access_key;
    const user = await admin.getUser({ tenant: `svc${serviceId}`, uid: 'owner' });
    const key = user.keys.find((k) => k.access_key === accessKey)!;
    return f.s3({ access_key: key.access_key, secret_key: key.secret_key });
  }

  /** A bucket at the gateway and its row (until the buckets route is used here). */
  async function bucket(serviceId: number, owner: S3Client, name: string): Promise<number> {
    await owner.send(new CreateBucketCommand({ Bucket: name }));
    return (await buckets.insert(serviceId, name, 'FRA')).id;
  }

  /** A fresh account with a trial service: its token, the service id and an S3 client of its default key. */
  async function account(): Promise<{ token: string; id: number; owner: S3Client }> {
    const { token } = await f.t.signUp();
    const id = await f.orderTrial(token);
    return { token, id, owner: await ownerS3(id, token) };
  }

  async function newKey(token: string, serviceId: number, body: Record<string, unknown>): Promise<NewKey> {
    const res = await f.t.request('POST', `${OS}/${serviceId}/keys`, { token, body });
    expect(res.status, res.text).toBe(201);
    return res.body as NewKey;
  }

  const revoke = (token: string, serviceId: number, keyId: number) =>
    f.t.request('DELETE', `${OS}/${serviceId}/keys/${keyId}`, { token });

  it('lists the default key, shows a secret once, and the gateway enforces read-only and bucket scopes', async () => {
    const { token, id, owner: s3 } = await account();
    const list = await f.t.request('GET', `${OS}/${id}/keys`, { token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({
      total: 1,
      items: [{ label: 'default', bucket: null, access: 'readwrite' }],
    });
    expect(list.text).not.toContain('secret');
    await bucket(id, s3, 'photos');
    await bucket(id, s3, 'private');
    await s3.send(new PutObjectCommand({ Bucket: 'photos', Key: 'a.txt', Body: 'A' }));
    await s3.send(new PutObjectCommand({ Bucket: 'private', Key: 'p.txt', Body: 'P' }));

    const full = await newKey(token, id, { label: 'ci' });
    expect(full).toMatchObject({ label: 'ci', bucket: null, access: 'readwrite' });
    expect(full.secret_key).toMatch(/^[A-Za-z0-9]{40}$/);
    const fullS3 = f.s3(full);
    expect(
      await outcome(fullS3.send(new PutObjectCommand({ Bucket: 'private', Key: 'ci', Body: 'x' }))),
    ).toBe('ok');

    const read = f.s3(await newKey(token, id, { label: 'reader', access: 'read' }));
    expect(await outcome(read.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe('ok');
    expect(await outcome(read.send(new PutObjectCommand({ Bucket: 'photos', Key: 'r', Body: 'r' })))).toBe(
      'AccessDenied',
    );

    const scopedKey = await newKey(token, id, { label: 'uploads', bucket: 'photos' });
    expect(scopedKey).toMatchObject({ bucket: 'photos', access: 'readwrite' });
    const scoped = f.s3(scopedKey);
    expect(await outcome(scoped.send(new PutObjectCommand({ Bucket: 'photos', Key: 'up', Body: 'u' })))).toBe(
      'ok',
    );
    expect(await outcome(scoped.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe('ok');
    expect(await outcome(scoped.send(new ListObjectsV2Command({ Bucket: 'photos' })))).toBe('ok');
    // What a scoped key stored is the service's: the default key and a read key of the service read it.
    expect(await outcome(s3.send(new GetObjectCommand({ Bucket: 'photos', Key: 'up' })))).toBe('ok');
    expect(await outcome(read.send(new GetObjectCommand({ Bucket: 'photos', Key: 'up' })))).toBe('ok');
    // The policy's grant to the owner does not widen the service's read-only key.
    expect(await outcome(read.send(new PutObjectCommand({ Bucket: 'photos', Key: 'r2', Body: 'r' })))).toBe(
      'AccessDenied',
    );
    expect(await outcome(scoped.send(new ListObjectsV2Command({ Bucket: 'private' })))).toBe('AccessDenied');
    expect(await outcome(scoped.send(new GetObjectCommand({ Bucket: 'private', Key: 'p.txt' })))).toBe(
      'AccessDenied',
    );

    const scopedReadKey = await newKey(token, id, { label: 'viewer', bucket: 'photos', access: 'read' });
    const scopedRead = f.s3(scopedReadKey);
    expect(await outcome(scopedRead.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe(
      'ok',
    );
    expect(
      await outcome(scopedRead.send(new PutObjectCommand({ Bucket: 'photos', Key: 'v', Body: 'v' }))),
    ).toBe('AccessDenied');
    // Both scoped keys are in the bucket's policy: the first still writes.
    expect(
      await outcome(scoped.send(new PutObjectCommand({ Bucket: 'photos', Key: 'up2', Body: 'u' }))),
    ).toBe('ok');

    const listed = await f.t.request('GET', `${OS}/${id}/keys`, { token: token });
    expect((listed.body as { items: NewKey[] }).items.map((k) => [k.label, k.bucket, k.access])).toEqual([
      ['default', null, 'readwrite'],
      ['ci', null, 'readwrite'],
      ['reader', null, 'read'],
      ['uploads', 'photos', 'readwrite'],
      ['viewer', 'photos', 'read'],
    ]);
    expect(listed.text).not.toContain(full.secret_key);
    expect(listed.text).not.toContain('secret_key');

    // Revoked: the next request with the key is refused by the gateway.
    for (const [key, client] of [
      [full, fullS3],
      [scopedKey, scoped],
    ] as const) {
      const res = await revoke(token, id, key.id);
      expect([res.status, res.body]).toEqual([200, { ok: true, id: key.id }]);
      expect(await outcome(client.send(new ListObjectsV2Command({ Bucket: 'photos' })))).toBe(
        'InvalidAccessKeyId',
      );
    }
    const readerId = (listed.body as { items: NewKey[] }).items[2]!.id;
    expect((await revoke(token, id, readerId)).status).toBe(200);
    expect(await outcome(read.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe(
      'InvalidAccessKeyId',
    );
    // The read-only scoped key is still let in; once it goes too, the bucket has no policy left.
    expect(await outcome(scopedRead.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe(
      'ok',
    );
    expect((await revoke(token, id, scopedReadKey.id)).status).toBe(200);
    // The owner keeps reading what the revoked keys stored (the policy keeps that grant alone).
    const policy = await s3.send(new GetBucketPolicyCommand({ Bucket: 'photos' }));
    expect(JSON.parse(policy.Policy!).Statement.map((st: { Sid: string }) => st.Sid)).toEqual([
      'owner-reads',
    ]);
    expect(await outcome(s3.send(new GetObjectCommand({ Bucket: 'photos', Key: 'up' })))).toBe('ok');
    expect((await revoke(token, id, scopedReadKey.id)).status).toBe(404);

    const defaultId = (listed.body as { items: NewKey[] }).items[0]!.id;
    const kept = await revoke(token, id, defaultId);
    expect([kept.status, kept.body]).toEqual([409, { detail: 'The default key cannot be revoked' }]);
    expect(await outcome(s3.send(new GetObjectCommand({ Bucket: 'photos', Key: 'a.txt' })))).toBe('ok');
  });

  it('refuses bad input (422 naming the field), a 51st key (403) and another account (404)', async () => {
    const a = await account();
    const unknown = await f.t.request('POST', `${OS}/${a.id}/keys`, {
      token: a.token,
      body: { label: 'x', bucket: 'nope' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'bucket'] });
    for (const body of [{ label: '' }, { label: 'x'.repeat(101) }, { label: 'x', access: 'write' }]) {
      const bad = await f.t.request('POST', `${OS}/${a.id}/keys`, { token: a.token, body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
    }

    const b = await account();
    const bucketId = await bucket(a.id, a.owner, 'theirs');
    const key = await newKey(a.token, a.id, { label: 'one' });
    const foreign = [
      f.t.request('GET', `${OS}/${a.id}/keys`, { token: b.token }),
      f.t.request('POST', `${OS}/${a.id}/keys`, { token: b.token, body: { label: 'x' } }),
      f.t.request('DELETE', `${OS}/${a.id}/keys/${key.id}`, { token: b.token }),
      f.t.request('POST', `${OS}/${a.id}/buckets/${bucketId}/objects/presign`, {
        token: b.token,
        body: { method: 'GET', key: 'k' },
      }),
      // Their own service, another's bucket or key.
      f.t.request('POST', `${OS}/${b.id}/buckets/${bucketId}/objects/presign`, {
        token: b.token,
        body: { method: 'GET', key: 'k' },
      }),
      f.t.request('DELETE', `${OS}/${b.id}/keys/${key.id}`, { token: b.token }),
    ];
    for (const res of await Promise.all(foreign)) expect(res.status, res.text).toBe(404);

    for (let i = 2; i < 50; i++) await newKey(a.token, a.id, { label: `k${i}` });
    const over = await f.t.request('POST', `${OS}/${a.id}/keys`, { token: a.token, body: { label: 'over' } });
    expect([over.status, over.body]).toEqual([403, { detail: 'Key limit reached (50)' }]);
    const listed = await f.t.request('GET', `${OS}/${a.id}/keys`, { token: a.token });
    expect(listed.body.total).toBe(50);
  }, 120_000);

  it("refuses every key of a suspended service at the gateway, the owner's subusers too", async () => {
    const a = await account();
    await bucket(a.id, a.owner, 'docs');
    await a.owner.send(new PutObjectCommand({ Bucket: 'docs', Key: 'd', Body: 'D' }));
    const read = f.s3(await newKey(a.token, a.id, { label: 'r', access: 'read' }));
    const scoped = f.s3(await newKey(a.token, a.id, { label: 's', bucket: 'docs' }));
    const get = (c: S3Client) => outcome(c.send(new GetObjectCommand({ Bucket: 'docs', Key: 'd' })));
    const services = f.t.node.modules.find((m) => m.name === 'services') as ServicesModule;
    const staff = { userId: null, realm: 'staff', ip: null } as const;
    await services.lifecycle.suspend(a.id, 'Abuse report', staff);
    expect([await get(a.owner), await get(read), await get(scoped)]).toEqual([
      'UserSuspended',
      'UserSuspended',
      'UserSuspended',
    ]);
    const refused = await f.t.request('POST', `${OS}/${a.id}/keys`, { token: a.token, body: { label: 'x' } });
    expect(refused.status).toBe(409);
    await services.lifecycle.unsuspend(a.id, staff);
    expect([await get(a.owner), await get(read), await get(scoped)]).toEqual(['ok', 'ok', 'ok']);
  });

  it('presigns a PUT, GET and DELETE that a plain HTTP client uses without credentials, until it expires', async () => {
    const a = await account();
    const bucketId = await bucket(a.id, a.owner, 'web');
    const presign = (body: Record<string, unknown>) =>
      f.t.request('POST', `${OS}/${a.id}/buckets/${bucketId}/objects/presign`, { token: a.token, body });
    const key = 'uploads/a file (1)+ü.txt';

    const before = Date.now();
    const put = await presign({ method: 'PUT', key, content_type: 'text/plain', expires_in: 120 });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ method: 'PUT', key, headers: { 'content-type': 'text/plain' } });
    expect(put.body.url).toMatch(new RegExp(`^${f.gw.s3Url}/web/uploads/`));
    expect(put.body.url).toContain('X-Amz-Signature=');
    const expiresAt = Date.parse(put.body.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 119_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 121_000);
    // The signed content type must be sent as signed.
    const wrongType = await fetch(put.body.url, {
      method: 'PUT',
      body: 'x',
      headers: { 'content-type': 'text/html' },
    });
    expect(wrongType.status).toBe(403);
    const stored = await fetch(put.body.url, {
      method: 'PUT',
      body: 'hello, world',
      headers: put.body.headers,
    });
    expect(stored.status).toBe(200);

    const get = await presign({ method: 'GET', key });
    expect(get.body.headers).toEqual({});
    const got = await fetch(get.body.url);
    expect([got.status, got.headers.get('content-type'), await got.text()]).toEqual([
      200,
      'text/plain',
      'hello, world',
    ]);

    const del = await presign({ method: 'DELETE', key });
    expect((await fetch(del.body.url, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(get.body.url)).status).toBe(404);

    const short = await presign({ method: 'GET', key: 'any', expires_in: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    expect((await fetch(short.body.url)).status).toBe(403);

    const max = (await new StorageRepository(f.t.node.runtime.database.db as never).find(a.id))!
      .presign_max_seconds;
    for (const body of [
      { method: 'GET', key, expires_in: 0 },
      { method: 'GET', key, expires_in: max + 1 },
    ]) {
      const bad = await presign(body);
      expect(bad.status, bad.text).toBe(422);
      expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'expires_in'] });
    }
    const typed = await presign({ method: 'GET', key, content_type: 'text/plain' });
    expect(typed.body.detail[0]).toMatchObject({ loc: ['body', 'content_type'] });
    expect((await presign({ method: 'POST', key })).status).toBe(422);
    expect((await presign({ method: 'GET', key: '' })).status).toBe(422);
    const gone = await f.t.request('POST', `${OS}/${a.id}/buckets/999999/objects/presign`, {
      token: a.token,
      body: { method: 'GET', key },
    });
    expect(gone.status).toBe(404);
  }, 30_000);
});
