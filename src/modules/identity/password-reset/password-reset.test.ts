import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import {
  ORGS,
  PASSWORD,
  addMember,
  createOrg,
  staffLogin,
  storefrontCustomer,
} from '../../../testing/org-fixture.ts';
import { mailTo, startSmtpSink, type SmtpSink } from '../../../testing/smtp-sink.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const SENT = { detail: 'If the address is registered, a reset link has been sent.' };
const LIMITED = { detail: 'Too many authentication attempts. Please try again later.' };

function tokenIn(mail: ParsedMail): string {
  const m = /reset token with your new password: (\S+)/.exec(mail.text ?? '');
  if (m === null) throw new Error(`no token in: ${mail.text}`);
  return m[1]!;
}

describe('password reset by mail', () => {
  const clock = new ManualClock(Date.now());
  let smtp: SmtpSink;
  let t: TestApp;
  let ip = 0;
  /** Each test's requests from an address of its own: the per-IP count is tested on purpose. */
  const from = () => ({ 'x-forwarded-for': `198.51.100.${++ip}` });
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({
      clock,
      env: { SMTP_URL: smtp.url, TRUST_PROXY: 'true', PUBLIC_WEB_URL: 'https://panel.example.net' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails a single-use token; the new password works, the old one and every session do not', async () => {
    const user = await t.signUp();
    const second = await t.request('POST', '/api/v1/auth/login', {
      body: { email: user.email, password: PASSWORD },
    });
    const headers = from();
    const res = await t.request('POST', '/api/v1/auth/forgot-password', {
      body: { email: user.email.toUpperCase() },
      headers,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SENT);
    const mail = await smtp.waitFor((m) => mailTo(m) === user.email.toLowerCase());
    expect(mail.subject).toBe('Reset your password');
    const token = tokenIn(mail);
    expect(mail.text).toContain(`https://panel.example.net/reset-password?token=${token}`);

    const reset = await t.request('POST', '/api/v1/auth/reset-password', {
      body: { token, password: 'a brand new secret' },
    });
    expect(reset.status).toBe(200);
    // Every session of the account ends at once: access and refresh tokens alike.
    expect((await t.request('GET', '/api/v1/auth/me', { token: user.token })).status).toBe(401);
    expect((await t.request('GET', '/api/v1/auth/me', { token: second.body.access_token })).status).toBe(401);
    expect(
      (await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: user.refreshToken } }))
        .status,
    ).toBe(401);
    expect(
      (await t.request('POST', '/api/v1/auth/login', { body: { email: user.email, password: PASSWORD } }))
        .status,
    ).toBe(401);
    expect(
      (
        await t.request('POST', '/api/v1/auth/login', {
          body: { email: user.email, password: 'a brand new secret' },
        })
      ).status,
    ).toBe(200);

    const again = await t.request('POST', '/api/v1/auth/reset-password', {
      body: { token, password: 'yet another secret' },
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: 'Invalid or expired reset token' });
    expect(
      (
        await t.request('POST', '/api/v1/auth/reset-password', {
          body: { token: 'made-up', password: 'yet another secret' },
        })
      ).status,
    ).toBe(400);
  });

  it('refuses a token after one hour', async () => {
    const user = await t.signUp();
    await t.request('POST', '/api/v1/auth/forgot-password', { body: { email: user.email }, headers: from() });
    const token = tokenIn(await smtp.waitFor((m) => mailTo(m) === user.email.toLowerCase()));
    clock.advance(60 * 60_000 + 1000);
    const res = await t.request('POST', '/api/v1/auth/reset-password', {
      body: { token, password: 'too late for this' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Invalid or expired reset token' });
  });

  it('answers an unknown address the same, and sends nothing', async () => {
    const before = smtp.messages.length;
    const res = await t.request('POST', '/api/v1/auth/forgot-password', {
      body: { email: 'nobody@example.com' },
      headers: from(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SENT);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages.length).toBe(before);
  });

  it('counts every request: 10 in 15 minutes per IP and 3 per address', async () => {
    const headers = from();
    for (let i = 0; i < 10; i++) {
      const res = await t.request('POST', '/api/v1/auth/forgot-password', {
        body: { email: `ip${i}@example.com` },
        headers,
      });
      expect(res.status).toBe(200);
    }
    const eleventh = await t.request('POST', '/api/v1/auth/forgot-password', {
      body: { email: 'ip10@example.com' },
      headers,
    });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual(LIMITED);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(eleventh.headers.get('retry-after'))).toBeLessThanOrEqual(900);

    for (let i = 0; i < 3; i++) {
      expect(
        (
          await t.request('POST', '/api/v1/auth/forgot-password', {
            body: { email: 'same@example.com' },
            headers: from(),
          })
        ).status,
      ).toBe(200);
    }
    const fourth = await t.request('POST', '/api/v1/auth/forgot-password', {
      body: { email: 'SAME@example.com' },
      headers: from(),
    });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual(LIMITED);
    clock.advance(15 * 60_000 + 1000);
    expect(
      (
        await t.request('POST', '/api/v1/auth/forgot-password', {
          body: { email: 'same@example.com' },
          headers,
        })
      ).status,
    ).toBe(200);
  });

  it('resets a storefront customer within its organization, and staff through the main site', async () => {
    const owner = await t.signUp();
    await createOrg(t, owner.token, 'reset-shop');
    const customer = await storefrontCustomer(t, 'reset-shop', 'buyer@example.com');
    const sent = await t.request('POST', `${ORGS}/reset-shop/auth/forgot-password`, {
      body: { email: 'buyer@example.com' },
      headers: from(),
    });
    expect(sent.body).toEqual(SENT);
    const mail = await smtp.waitFor((m) => mailTo(m) === 'buyer@example.com');
    const token = tokenIn(mail);
    expect(mail.text).toContain(`https://panel.example.net/orgs/reset-shop/reset-password?token=${token}`);
    // Not a main-site token.
    expect(
      (
        await t.request('POST', '/api/v1/auth/reset-password', {
          body: { token, password: 'shopper password' },
        })
      ).status,
    ).toBe(400);
    const ok = await t.request('POST', `${ORGS}/reset-shop/auth/reset-password`, {
      body: { token, password: 'shopper password' },
    });
    expect(ok.status).toBe(200);
    expect((await t.request('GET', `${ORGS}/reset-shop/auth/me`, { token: customer.token })).status).toBe(
      401,
    );
    const login = await t.request('POST', `${ORGS}/reset-shop/auth/login`, {
      body: { email: 'buyer@example.com', password: 'shopper password' },
    });
    expect(login.status).toBe(200);

    const staffer = await t.signUp();
    await addMember(t, owner.token, 'reset-shop', staffer.email, 'admin');
    const staff = await staffLogin(t, 'reset-shop', staffer.email);
    await t.request('POST', `${ORGS}/reset-shop/staff/auth/forgot-password`, {
      body: { email: staffer.email },
      headers: from(),
    });
    const staffMail = await smtp.waitFor(
      (m) => mailTo(m) === staffer.email.toLowerCase() && m.subject === 'Reset your password',
    );
    expect(staffMail.text).toContain('https://panel.example.net/reset-password?token=');
    await t.request('POST', '/api/v1/auth/reset-password', {
      body: { token: tokenIn(staffMail), password: 'staff new secret' },
    });
    expect((await t.request('GET', `${ORGS}/reset-shop/staff/me`, { token: staff.token })).status).toBe(401);
    await staffLogin(t, 'reset-shop', staffer.email, 'staff new secret');
  });
});
