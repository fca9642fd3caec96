import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OS, TRIAL } from '../../testing/object-storage-fixture.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

describe('object storage without a gateway (OBJECT_STORAGE_LOCAL=off, no admin URL)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  it('offers its plans as not orderable now, with the reason not_configured', async () => {
    for (const id of [40, 41]) {
      const p = await t.request('GET', `/api/v1/products/${id}`);
      expect(p.body, p.text).toMatchObject({
        module_name: 'object_storage',
        is_orderable_now: false,
        availability_reason: 'not_configured',
      });
    }
  });

  it('refuses an order with 409 naming the reason, and makes no service', async () => {
    const res = await t.request('POST', '/api/v1/services/order', { token, body: TRIAL });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toEqual({ detail: 'Product cannot be ordered now: not_configured' });
    expect((await t.request('GET', '/api/v1/services/', { token })).body).toEqual([]);
  });

  it('answers no regions and no services', async () => {
    expect((await t.request('GET', `${OS}/regions`, { token })).body).toEqual({ regions: [] });
    expect((await t.request('GET', `${OS}/services`, { token })).body).toEqual({ items: [], total: 0 });
    expect((await t.request('GET', `${OS}/1`, { token })).status).toBe(404);
    expect((await t.request('GET', `${OS}/regions`)).status).toBe(401);
  });
});
