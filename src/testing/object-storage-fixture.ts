/**
 * The product against a real one-node Ceph RADOS Gateway (ceph-gateway.ts): the gateway started on
 * free ports, the product configured with its admin user and two regions (FRA, IAD) at it, and
 * helpers to order the trial plan and talk S3 with a service's keys. Each test orders its own
 * service: a tenant of its own at the gateway.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { Clock } from '../kernel/clock.ts';
import { startCephGateway, type CephGateway } from './ceph-gateway.ts';
import { startTestApp, type TestApp } from './test-app.ts';

export const OS = '/api/v1/client/object-storage';
/** The catalogue's free object storage plan (catalog/products.json). */
export const TRIAL = { product_id: 41, pricing_id: 25 } as const;

export interface StorageFixture {
  readonly gw: CephGateway;
  readonly t: TestApp;
  /** Orders the trial plan for the token's account; answers the service id (active). */
  orderTrial(token: string, body?: Record<string, unknown>): Promise<number>;
  /** An S3 client with a key, straight at the gateway (path-style, as a client of the product would). */
  s3(key: { access_key: string; secret_key: string }): S3Client;
  close(): Promise<void>;
}

export async function startStorageApp(
  options: { clock?: Clock; env?: Record<string, string> } = {},
): Promise<StorageFixture> {
  const gw = await startCephGateway();
  let t: TestApp;
  try {
    t = await startTestApp({
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      env: {
        OBJECT_STORAGE_ADMIN_URL: gw.s3Url,
        OBJECT_STORAGE_ADMIN_ACCESS_KEY: gw.adminAccessKey,
        OBJECT_STORAGE_ADMIN_SECRET_KEY: gw.adminSecretKey,
        OBJECT_STORAGE_REGIONS: JSON.stringify([
          { code: 'FRA', endpoint: gw.s3Url },
          { code: 'IAD', endpoint: gw.s3Url },
        ]),
        ...options.env,
      },
    });
  } catch (e) {
    await gw.close();
    throw e;
  }
  const clients: S3Client[] = [];
  return {
    gw,
    t,
    async orderTrial(token, body = {}) {
      const res = await t.request('POST', '/api/v1/services/order', { token, body: { ...TRIAL, ...body } });
      if (res.status !== 201) throw new Error(`order: ${res.status} ${res.text}`);
      if (res.body.status !== 'active') throw new Error(`order: service is ${res.body.status} (${res.text})`);
      return res.body.id as number;
    },
    s3(key) {
      const c = new S3Client({
        endpoint: gw.s3Url,
        region: gw.region,
        forcePathStyle: true,
        credentials: { accessKeyId: key.access_key, secretAccessKey: key.secret_key },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 1,
      });
      clients.push(c);
      return c;
    },
    async close() {
      for (const c of clients) c.destroy();
      await t.close();
      await gw.close();
    },
  };
}
