import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

describe('identity: register, login, refresh, me', () => {
  const clock = new ManualClock(Date.now());
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => t?.close());

  it('registers, refuses a taken email whatever its case, and signs in', async () => {
    const reg = await t.request('POST', '/api/v1/auth/register', {
      body: { email: 'Alice@Example.com', password: 'a long password' },
    });
    expect(reg.status).toBe(201);
    expect(reg.body).toEqual({
      id: expect.any(Number),
      email: 'Alice@Example.com',
      created_at: expect.any(String),
    });
    expect(JSON.stringify(reg.body)).not.toContain('password');

    const again = await t.request('POST', '/api/v1/auth/register', {
      body: { email: 'alice@example.com', password: 'another password' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'Email already registered' });

    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'alice@example.com', password: 'a long password' },
    });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 900,
    });
    const me = await t.request('GET', '/api/v1/auth/me', { token: login.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(reg.body);
  });

  it('answers a wrong password and an unknown email identically', async () => {
    await t.signUp('bob@example.com');
    const wrong = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'bob@example.com', password: 'not the password' },
    });
    const unknown = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'nobody@example.com', password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.body).toEqual({ detail: 'Incorrect email or password' });
  });

  it('needs a valid bearer token on private routes', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer nonsense' },
      { authorization: 'Basic abc' },
    ] as Record<string, string>[]) {
      const res = await t.request('GET', '/api/v1/auth/me', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: 'Not authenticated' });
    }
    const { token } = await t.signUp();
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    expect((await t.request('GET', '/api/v1/auth/me', { token: forged })).status).toBe(401);
  });

  it('expires access tokens and rotates refresh tokens', async () => {
    const { token, refreshToken } = await t.signUp();
    expect((await t.request('GET', '/api/v1/auth/me', { token })).status).toBe(200);
    clock.advance(901_000);
    expect((await t.request('GET', '/api/v1/auth/me', { token })).status).toBe(401);

    const refreshed = await t.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: refreshToken },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token_type).toBe('bearer');
    expect(refreshed.body.refresh_token).not.toBe(refreshToken);
    expect((await t.request('GET', '/api/v1/auth/me', { token: refreshed.body.access_token })).status).toBe(
      200,
    );

    // A used refresh token is refused, and its reuse revokes the newer one too.
    const reuse = await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: refreshToken } });
    expect(reuse.status).toBe(401);
    const newer = await t.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: refreshed.body.refresh_token },
    });
    expect(newer.status).toBe(401);
  });

  it('expires refresh tokens', async () => {
    const { refreshToken } = await t.signUp();
    clock.advance(31 * 86_400_000);
    const res = await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: refreshToken } });
    expect(res.status).toBe(401);
  });

  it('validates the register body', async () => {
    const res = await t.request('POST', '/api/v1/auth/register', {
      body: { email: 'not-an-email', password: 'x' },
    });
    expect(res.status).toBe(422);
    const locs = (res.body.detail as { loc: unknown[] }[]).map((d) => d.loc);
    expect(locs).toContainEqual(['body', 'email']);
    expect(locs).toContainEqual(['body', 'password']);
  });
});
