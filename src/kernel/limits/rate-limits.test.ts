import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { AUTH_FAILURES_PER_MINUTE } from './auth-failure-limit.ts';
import { REQUESTS_PER_MINUTE } from './request-rate-limit.ts';

async function inBatches(count: number, batch: number, send: () => Promise<number>): Promise<number[]> {
  const statuses: number[] = [];
  for (let done = 0; done < count; done += batch) {
    statuses.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - done) }, send))));
  }
  return statuses;
}

describe('failed sign-in limit', () => {
  const clock = new ManualClock(Date.now());
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => t?.close());

  it('refuses the 41st failure within a minute with Retry-After 60, per route', async () => {
    const { email } = await t.signUp();
    const bad = () =>
      t
        .request('POST', '/api/v1/auth/login', { body: { email, password: 'wrong password' } })
        .then((r) => r.status);
    // Successful sign-ins do not count.
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await t.request('POST', '/api/v1/auth/login', {
            body: { email, password: 'correct horse battery' },
          })
        ).status,
      ).toBe(200);
    }
    const statuses = await inBatches(AUTH_FAILURES_PER_MINUTE, 8, bad);
    expect(statuses.every((s) => s === 401)).toBe(true);

    const refused = await t.request('POST', '/api/v1/auth/login', {
      body: { email, password: 'correct horse battery' },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.body).toEqual({ detail: 'Too many authentication attempts. Please try again later.' });

    // Another route keeps its own count.
    const refresh = await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: 'nope' } });
    expect(refresh.status).toBe(401);

    clock.advance(60_001);
    expect(
      (await t.request('POST', '/api/v1/auth/login', { body: { email, password: 'correct horse battery' } }))
        .status,
    ).toBe(200);
  });
});

describe('request rate limit', () => {
  const clock = new ManualClock(Date.now());
  let t: TestApp;
  beforeAll(async () => {
    // Behind no proxy: the proxy's own per-second limits are tested in proxy-limits.test.ts.
    t = await startTestApp({ clock, env: { PROXY_LIMITS: 'false' } });
  });
  afterAll(async () => t?.close());

  it('allows 2400 requests a minute per IP and then answers 429 with Retry-After', async () => {
    const get = () => t.request('GET', '/api/v1/locations').then((r) => r.status);
    const half = REQUESTS_PER_MINUTE / 2;
    expect((await inBatches(half, 50, get)).every((s) => s === 200)).toBe(true);
    clock.advance(20_000);
    expect((await inBatches(half, 50, get)).every((s) => s === 200)).toBe(true);

    const refused = await t.request('GET', '/api/v1/locations');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Rate limit exceeded' });
    // The oldest counted request is a minute old 40 s from now.
    expect(refused.headers.get('retry-after')).toBe('40');

    clock.advance(40_000);
    expect(await get()).toBe(200);
  }, 120_000);
});
