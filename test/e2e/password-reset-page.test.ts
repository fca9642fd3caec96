/**
 * The password reset page the reset mail links to, in a real browser: without PUBLIC_WEB_URL the
 * mail links to this API's own page, the token in the fragment (never sent to a server, so never
 * in a log); the page's form posts the new password and says how it went; the new password signs
 * in. The main site's page (also the staff realm's) and a storefront's.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../src/testing/chromium.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { ORGS, PASSWORD, addMember, createOrg, storefrontCustomer } from '../../src/testing/org-fixture.ts';
import { mailTo, startSmtpSink, type SmtpSink } from '../../src/testing/smtp-sink.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

describe('the password reset page, in a real browser', () => {
  let smtp: SmtpSink;
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    // A fixed port: the mail's link names this API's own address. Another process may take a free
    // port before the app listens on it: then another one.
    for (let attempt = 1; ; attempt++) {
      try {
        t = await startTestApp({
          env: { SMTP_URL: smtp.url, API_PORT: String(await freePort('127.0.0.1')) },
        });
        break;
      } catch (error) {
        if (attempt === 5 || !String(error).includes('EADDRINUSE')) throw error;
      }
    }
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  /** The link of the latest reset mail to `email`. */
  async function resetLink(email: string): Promise<string> {
    const mail = await smtp.waitFor(
      (m) => mailTo(m) === email.toLowerCase() && m.subject === 'Reset your password',
    );
    const link = /^(https?:\/\/\S+)$/m.exec(mail.text ?? '')?.[1];
    if (link === undefined) throw new Error(`no link in: ${mail.text}`);
    return link;
  }

  /** Opens `link`, keeping what the page asked of the network and what the browser complained of. */
  async function open(link: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    const page = await browser.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(link);
    expect(res!.status()).toBe(200);
    const csp = res!.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    return { page, requests, errors };
  }

  async function choose(page: Page, password: string): Promise<string> {
    await page.getByLabel('New password').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
    const status = page.getByRole('status');
    await expect
      .poll(async () => (await status.innerText()).trim(), { timeout: 10_000 })
      .not.toMatch(/^(|Changing your password…)$/);
    return (await status.innerText()).trim();
  }

  it('main site: the mail links here; the form changes the password, the new one signs in', async () => {
    const user = await t.signUp();
    await t.request('POST', '/api/v1/auth/forgot-password', { body: { email: user.email } });
    const link = await resetLink(user.email);
    expect(link).toMatch(new RegExp(`^${t.url}/reset-password#token=[A-Za-z0-9_-]{43}$`));

    const { page, requests, errors } = await open(link);
    expect(await page.title()).toBe('Choose a new password');
    await expect.poll(() => page.url()).toBe(`${t.url}/reset-password`); // the token off the address bar
    expect(await choose(page, 'a brand new secret')).toBe(
      'Your password has been changed. You can now sign in with it.',
    );
    expect(await page.getByLabel('New password').isVisible()).toBe(false);
    // Same origin only: the page, then its one POST.
    expect(requests.every((u) => u.startsWith(`${t.url}/`))).toBe(true);
    expect(requests).toContain(`${t.url}/api/v1/auth/reset-password`);
    expect(errors).toEqual([]);
    await page.close();

    const signIn = (password: string) =>
      t.request('POST', '/api/v1/auth/login', { body: { email: user.email, password } });
    expect((await signIn('a brand new secret')).status).toBe(200);
    expect((await signIn(PASSWORD)).status).toBe(401);

    // The link is single-use: the page says why it fails.
    const again = await open(link);
    expect(await choose(again.page, 'yet another secret')).toBe('Invalid or expired reset token');
    await again.page.close();
  }, 60_000);

  it('a storefront: its own page posts to its organization; a staff member resets on the main site', async () => {
    const owner = await t.signUp();
    const slug = `page-shop-${Date.now().toString(36)}`;
    await createOrg(t, owner.token, slug);
    await storefrontCustomer(t, slug, 'shopper@example.com');
    await t.request('POST', `${ORGS}/${slug}/auth/forgot-password`, {
      body: { email: 'shopper@example.com' },
    });
    const link = await resetLink('shopper@example.com');
    expect(link).toMatch(new RegExp(`^${t.url}/orgs/${slug}/reset-password#token=`));
    const { page, requests, errors } = await open(link);
    expect(await choose(page, 'shopper new secret')).toBe(
      'Your password has been changed. You can now sign in with it.',
    );
    expect(requests).toContain(`${t.url}/api/v1/orgs/${slug}/auth/reset-password`);
    expect(errors).toEqual([]);
    await page.close();
    const login = await t.request('POST', `${ORGS}/${slug}/auth/login`, {
      body: { email: 'shopper@example.com', password: 'shopper new secret' },
    });
    expect(login.status).toBe(200);

    const staffer = await t.signUp();
    await addMember(t, owner.token, slug, staffer.email, 'admin');
    await t.request('POST', `${ORGS}/${slug}/staff/auth/forgot-password`, { body: { email: staffer.email } });
    expect(await resetLink(staffer.email)).toMatch(new RegExp(`^${t.url}/reset-password#token=`));
  }, 60_000);

  it('without a token in the link, says so and shows no form', async () => {
    const { page, errors } = await open(`${t.url}/reset-password`);
    await expect
      .poll(async () => (await page.getByRole('status').innerText()).trim())
      .toBe('This link holds no reset token. Ask for a new reset mail.');
    expect(await page.getByLabel('New password').isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
