import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, PASSWORD, createOrg } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { totpCode } from './totp.ts';

const MFA = '/api/v1/auth/mfa';
const STEP = 30_000;

describe('TOTP second factor (RFC 6238)', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 12, 0, 0));
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(async () => t?.close());

  /** A user with MFA on; answers the secret and the recovery codes. */
  async function enrolled() {
    const user = await t.signUp();
    const start = await t.request('POST', `${MFA}/enable`, { token: user.token });
    expect(start.status).toBe(200);
    const secret = start.body.secret as string;
    const done = await t.request('POST', `${MFA}/enable`, {
      token: user.token,
      body: { code: await totpCode(secret, clock.now()) },
    });
    expect(done.status).toBe(200);
    clock.advance(STEP);
    return { ...user, secret, recovery: done.body.recovery_codes as string[] };
  }

  it('enrols: a secret and its otpauth URI, then a first code activates it and answers ten recovery codes', async () => {
    const user = await t.signUp();
    // No body and a zero-byte JSON body both start enrolment.
    const start = await t.request('POST', `${MFA}/enable`, {
      token: user.token,
      rawBody: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      secret: expect.stringMatching(/^[A-Z2-7]+$/),
      otpauth_uri: expect.any(String),
    });
    const uri = new URL(start.body.otpauth_uri as string);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(start.body.secret);
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);

    const wrong = await t.request('POST', `${MFA}/enable`, { token: user.token, body: { code: '000000' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ detail: 'Invalid authentication code' });
    // Until it is activated, sign-in needs no second factor.
    expect(
      (await t.request('POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } }))
        .body,
    ).toHaveProperty('access_token');

    const done = await t.request('POST', `${MFA}/enable`, {
      token: user.token,
      body: { code: await totpCode(start.body.secret, clock.now()) },
    });
    expect(done.status).toBe(200);
    expect(done.body.recovery_codes).toHaveLength(10);
    expect(new Set(done.body.recovery_codes).size).toBe(10);
    expect((await t.request('POST', `${MFA}/enable`, { token: user.token })).status).toBe(409);
  });

  it('asks for the second factor at sign-in; a code computed now completes it, once', async () => {
    const user = await enrolled();
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    const mfaToken = login.body.mfa_token as string;

    const bad = await t.request('POST', `${MFA}/verify`, { body: { mfa_token: mfaToken, code: '123456' } });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ detail: 'Invalid authentication code' });
    // One step of drift each way is accepted (RFC 6238 §5.2).
    const code = await totpCode(user.secret, clock.now() + STEP);
    const ok = await t.request('POST', `${MFA}/verify`, { body: { mfa_token: mfaToken, code } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
    expect((await t.request('GET', '/api/v1/auth/me', { token: ok.body.access_token })).status).toBe(200);
    // The MFA token is used up; the same code is not accepted twice.
    expect((await t.request('POST', `${MFA}/verify`, { body: { mfa_token: mfaToken, code } })).status).toBe(
      401,
    );
    const again = await t.request('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: PASSWORD },
    });
    expect(
      (await t.request('POST', `${MFA}/verify`, { body: { mfa_token: again.body.mfa_token, code } })).status,
    ).toBe(401);
    // The MFA token lasts five minutes.
    clock.advance(5 * 60_000 + 1000);
    const late = await t.request('POST', `${MFA}/verify`, {
      body: { mfa_token: again.body.mfa_token, code: await totpCode(user.secret, clock.now()) },
    });
    expect(late.status).toBe(401);
    expect(late.body).toEqual({ detail: 'Invalid or expired MFA token' });
  });

  it('takes a recovery code once', async () => {
    const user = await enrolled();
    const signIn = async () =>
      (await t.request('POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } }))
        .body.mfa_token as string;
    const code = user.recovery[3]!;
    const first = await t.request('POST', `${MFA}/verify`, {
      body: { mfa_token: await signIn(), code: code.toUpperCase() },
    });
    expect(first.status).toBe(200);
    const second = await t.request('POST', `${MFA}/verify`, { body: { mfa_token: await signIn(), code } });
    expect(second.status).toBe(401);
  });

  it('gives new recovery codes (the old void) and turns off with a code', async () => {
    const user = await enrolled();
    const fresh = await t.request('POST', `${MFA}/recovery-codes`, {
      token: user.token,
      body: { code: user.recovery[0] },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recovery_codes).toHaveLength(10);
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: PASSWORD },
    });
    expect(
      (
        await t.request('POST', `${MFA}/verify`, {
          body: { mfa_token: login.body.mfa_token, code: user.recovery[1] },
        })
      ).status,
    ).toBe(401);

    const off = await t.request('POST', `${MFA}/disable`, {
      token: user.token,
      body: { code: await totpCode(user.secret, clock.now()) },
    });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ message: 'MFA disabled' });
    expect(
      (await t.request('POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } }))
        .body,
    ).toHaveProperty('access_token');
    expect(
      (await t.request('POST', `${MFA}/disable`, { token: user.token, body: { code: '123456' } })).status,
    ).toBe(409);
  });

  it('asks staff for their second factor too, and completes a staff session', async () => {
    const user = await enrolled();
    await createOrg(t, user.token, 'mfa-staff');
    const login = await t.request('POST', `${ORGS}/mfa-staff/staff/auth/login`, {
      body: { email: user.email, password: PASSWORD },
    });
    expect(login.body).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    const ok = await t.request('POST', `${MFA}/verify`, {
      body: { mfa_token: login.body.mfa_token, code: await totpCode(user.secret, clock.now()) },
    });
    expect(ok.status).toBe(200);
    expect(
      (await t.request('GET', `${ORGS}/mfa-staff/staff/me`, { token: ok.body.access_token })).status,
    ).toBe(200);
    expect((await t.request('GET', '/api/v1/auth/me', { token: ok.body.access_token })).status).toBe(401);
  });

  it('budgets the four MFA routes together: the 11th call in 5 minutes answers 429', async () => {
    const user = await enrolled();
    clock.advance(5 * 60_000);
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: PASSWORD },
    });
    const calls = [
      () => t.request('POST', `${MFA}/enable`, { token: user.token }),
      () => t.request('POST', `${MFA}/disable`, { token: user.token, body: { code: '000000' } }),
      () => t.request('POST', `${MFA}/recovery-codes`, { token: user.token, body: { code: '000000' } }),
      () => t.request('POST', `${MFA}/verify`, { body: { mfa_token: login.body.mfa_token, code: '000000' } }),
    ];
    for (let i = 0; i < 10; i++) expect((await calls[i % 4]!()).status).not.toBe(429);
    const eleventh = await calls[3]!();
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toBe('300');
    expect(eleventh.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many requests for this action. Please wait and try again.',
        action: 'user.mfa_verify',
        retry_after_seconds: 300,
      },
    });
    expect((await calls[0]!()).status).toBe(429);
    // Another account is not held back.
    const other = await t.signUp();
    expect((await t.request('POST', `${MFA}/enable`, { token: other.token })).status).toBe(200);
    clock.advance(5 * 60_000 + 1000);
    const fresh = await t.signUp();
    expect((await t.request('POST', `${MFA}/enable`, { token: fresh.token })).status).toBe(200);
  });
});
