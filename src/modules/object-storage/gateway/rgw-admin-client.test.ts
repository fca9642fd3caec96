import {
  CreateBucketCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCephGateway, type CephGateway } from '../../../testing/ceph-gateway.ts';
import { eventually } from '../../../testing/eventually.ts';
import { RgwAdminClient, RgwAdminError } from '../index.ts';

// The pinned SDK runs on Node 20; it only warns that its releases of 2027 will not.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const MIB = 1024 * 1024;
const owner = { tenant: 'svc1', uid: 'owner' };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// A real gateway in one of CI's two passes only (PostgreSQL + Redis): the slow real-component suites
// run once per CI run.
describe.skipIf(process.env.DATABASE_URL === undefined)(
  'RgwAdminClient against a local Ceph RADOS Gateway',
  () => {
    let gateway: CephGateway;
    let admin: RgwAdminClient;

    beforeAll(async () => {
      gateway = await startCephGateway();
      console.info(`Ceph gateway started in ${gateway.startMs} ms`);
      admin = new RgwAdminClient({
        url: gateway.s3Url,
        region: gateway.region,
        accessKey: gateway.adminAccessKey,
        secretKey: gateway.adminSecretKey,
      });
    }, 120_000);

    afterAll(async () => {
      await gateway?.close();
    }, 120_000);

    it('makes a tenant user with a key and a quota; S3 stores within it and refuses beyond; the user goes with its data', async () => {
      const created = await admin.createUser(owner, 'Owner of svc1');
      expect(created).toMatchObject({ tenant: 'svc1', user_id: 'owner' });
      expect(created.keys).toEqual([]);
      const key = await admin.createKey(owner);
      expect(key.user).toBe('svc1$owner');

      await admin.setUserQuota(owner, { maxSizeBytes: MIB });
      expect((await admin.getUser(owner)).user_quota).toMatchObject({ enabled: false, max_size: MIB });
      await admin.enableUserQuota(owner);
      expect((await admin.getUser(owner)).user_quota).toMatchObject({
        enabled: true,
        max_size: MIB,
        max_objects: -1,
      });

      const s3 = new S3Client({
        endpoint: gateway.s3Url,
        region: gateway.region,
        forcePathStyle: true,
        credentials: { accessKeyId: key.access_key, secretAccessKey: key.secret_key },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      try {
        await s3.send(new CreateBucketCommand({ Bucket: 'svc1:photos' }));
        const small = Buffer.alloc(600 * 1024, 'a');
        await s3.send(new PutObjectCommand({ Bucket: 'svc1:photos', Key: 'cat.jpg', Body: small }));
        const got = await s3.send(new GetObjectCommand({ Bucket: 'svc1:photos', Key: 'cat.jpg' }));
        expect(Buffer.from(await got.Body!.transformToByteArray()).equals(small)).toBe(true);

        // 600 KiB stored + 600 KiB more is past the 1 MiB of the user's quota.
        const refused = await s3
          .send(new PutObjectCommand({ Bucket: 'svc1:photos', Key: 'dog.jpg', Body: small }))
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(refused).toBeInstanceOf(S3ServiceException);
        expect((refused as S3ServiceException).name).toBe('QuotaExceeded');
        expect((refused as S3ServiceException).$metadata.httpStatusCode).toBe(403);
      } finally {
        s3.destroy();
      }

      expect(await admin.listBuckets(owner)).toEqual(['photos']);
      const stats = (await admin.getUser(owner, { stats: true })).stats!;
      expect(stats).toMatchObject({ num_objects: 1, size: 600 * 1024 });

      // The gateway writes its usage log every second.
      await eventually(async () => {
        const usage = await admin.usage(owner);
        const ops = usage.summary.find((s) => s.user === 'svc1$owner')?.categories.map((c) => c.category);
        expect(ops).toEqual(expect.arrayContaining(['create_bucket', 'put_obj', 'get_obj']));
      }, 15_000);

      await admin.deleteUser(owner);
      const gone = await admin.getUser(owner).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(gone).toBeInstanceOf(RgwAdminError);
      expect((gone as RgwAdminError).status).toBe(404);
    }, 60_000);

    it('stops every daemon by PID and removes its directory on close', async () => {
      const { pids, dir } = gateway;
      expect(Object.values(pids).every(alive)).toBe(true);
      await gateway.close();
      expect(Object.values(pids).filter(alive)).toEqual([]);
      expect(existsSync(dir)).toBe(false);
    });
  },
);
