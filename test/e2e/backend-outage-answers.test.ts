/**
 * What the API answers while Redis is away: routes that need it (per-action budgets) answer 503
 * with Retry-After, not 500; routes that do not (and the per-IP limit, which fails open) go on;
 * everything is back once Redis is. Needs DATABASE_URL and REDIS_URL; skipped without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/testing/eventually.ts';
import { startTcpProxy, type TcpProxy } from '../../src/testing/tcp-proxy.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

describe.skipIf(!DATABASE_URL || !REDIS_URL)('the API while Redis is away', () => {
  let t: TestApp;
  let redis: TcpProxy;
  beforeAll(async () => {
    const u = new URL(REDIS_URL!);
    redis = await startTcpProxy(u.hostname, Number(u.port || 6379));
    u.hostname = '127.0.0.1';
    u.port = String(redis.port);
    t = await startTestApp({ env: { REDIS_URL: u.toString() } });
  });
  afterAll(async () => {
    await redis?.restore().catch(() => undefined);
    await t?.close();
    await redis?.close();
  });

  const forgot = () =>
    t.request('POST', '/api/v1/auth/forgot-password', { body: { email: 'someone@example.com' } });

  it('answers 503 with Retry-After where Redis is needed, serves the rest, and recovers', async () => {
    expect((await forgot()).status).toBe(200);
    await redis.cut();
    const refused = await eventually(async () => {
      const res = await forgot();
      expect(res.status).toBe(503);
      return res;
    }, 15_000);
    expect(refused.body).toEqual({ detail: 'Service temporarily unavailable' });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('x-error-code')).toBe('http.backend_unavailable');
    expect((await t.request('GET', '/api/v1/locations')).status).toBe(200);
    await redis.restore();
    await eventually(async () => expect((await forgot()).status).toBe(200), 15_000);
  }, 60_000);
});
