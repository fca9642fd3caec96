import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcme, startAcmeApp, waitForCertificate, type AcmeFixture } from '../../testing/acme-fixture.ts';
import { createZone, ZONES } from '../../testing/dns-api-fixture.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import type { TestApp } from '../../testing/test-app.ts';

const SSL = '/api/v1/ssl';
const DAY = 86_400_000;

/**
 * A certificate's life on the module's clock: the 7-day issuance count and its 429, renewal 30
 * days before the end (a new certificate from the CA), a renewal that keeps failing (backoff, the
 * old certificate kept), and the end (`expired`). The CA runs on real time; the module's clock is
 * moved, never slept on.
 */
describe('certificate lifecycle on a moved clock', () => {
  let acme: AcmeFixture;
  let t: TestApp;
  let email: string;
  let token: string;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    acme = await startAcme();
    t = await startAcmeApp(acme, { clock });
    ({ email, token } = await t.signUp());
    const zone = await createZone(t, token, 'life.example');
    const a = await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token,
      body: { name: 'www', type: 'A', content: '127.0.0.1' },
    });
    expect(a.status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await acme?.close();
  });

  const status = async (domain: string) =>
    (await t.request('GET', `${SSL}/certificates/${domain}/status`, { token })).body;

  it('counts issuances per registered domain over 7 days; the 51st request answers 429 until one ages out', async () => {
    expect(
      (await t.request('POST', `${SSL}/certificates`, { token, body: { domain: 'www.life.example' } }))
        .status,
    ).toBe(202);
    expect((await waitForCertificate(t, token, 'www.life.example')).status).toBe('issued');
    expect((await status('www.life.example')).rate_limit).toEqual({
      registered_domain: 'life.example',
      issued_last_7_days: 1,
      limit: 50,
      remaining: 49,
      allowed: true,
    });
    // 49 more issuances of the registered domain, as other certificates of it would have made.
    const db = t.node.runtime.database.db;
    await db
      .insertInto('certificates_issuances' as never)
      .values(
        Array.from({ length: 49 }, (_, i) => ({
          certificate_id: 0,
          registered_domain: 'life.example',
          issued_at: new Date(clock.now() - DAY - i),
        })) as never,
      )
      .execute();
    expect((await status('a.life.example')).rate_limit).toMatchObject({
      issued_last_7_days: 50,
      remaining: 0,
      allowed: false,
    });
    const refused = await t.request('POST', `${SSL}/certificates`, {
      token,
      body: { domain: 'a.life.example' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: 'Certificate limit reached for life.example' });
    // The oldest counted issuance was a day ago: it leaves the window in 6 days.
    expect(Number(refused.headers.get('retry-after'))).toBe(6 * 86_400);
    clock.advance(6 * DAY + 1000);
    // Every seeded issuance has left the window; the real one has not.
    token = await t.signIn(email);
    expect((await status('a.life.example')).rate_limit).toMatchObject({
      issued_last_7_days: 1,
      allowed: true,
    });
  }, 90_000);

  it('renews 30 days before the end: a new certificate, renewal_attempts and last_renewal_at', async () => {
    const first = await waitForCertificate(t, token, 'www.life.example');
    const expires = Date.parse(String(first.expires_at));
    clock.set(expires - 31 * DAY);
    token = await t.signIn(email);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await waitForCertificate(t, token, 'www.life.example')).serial).toBe(first.serial);
    clock.set(expires - 29 * DAY);
    token = await t.signIn(email);
    let renewed = first;
    for (let i = 0; i < 300 && renewed.serial === first.serial; i++) {
      await new Promise((r) => setTimeout(r, 100));
      renewed = await waitForCertificate(t, token, 'www.life.example', ['issued', 'renewing', 'failed']);
    }
    expect(renewed).toMatchObject({ status: 'issued', renewal_attempts: 1, error_message: null });
    expect(renewed.serial).not.toBe(first.serial);
    expect(Date.parse(String(renewed.last_renewal_at))).toBe(expires - 29 * DAY);
    expect(renewed.id).toBe(first.id);
  }, 90_000);

  it('a renewal that fails keeps the certificate, retries with backoff, and the certificate expires at its end', async () => {
    const current = await waitForCertificate(t, token, 'www.life.example');
    const expires = Date.parse(String(current.expires_at));
    await acme.pebbles.pebble!.close(); // the CA is gone
    clock.set(expires - 28 * DAY);
    token = await t.signIn(email);
    const failing = await waitForRenewalAttempt(2);
    expect(failing).toMatchObject({ status: 'renewing', serial: current.serial });
    expect(failing.error_message).toMatch(/^pebble: /);
    expect((await status('www.life.example')).has_certificate).toBe(true);
    // The next round waits an hour after the first failed one, two after the second.
    clock.advance(59 * 60_000);
    token = await t.signIn(email);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await waitForRenewalAttempt(2)).renewal_attempts).toBe(2);
    clock.advance(2 * 60_000);
    token = await t.signIn(email);
    expect((await waitForRenewalAttempt(3)).renewal_attempts).toBe(3);
    // Two rounds failed in a row: the next waits two hours.
    clock.advance(119 * 60_000);
    token = await t.signIn(email);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await waitForRenewalAttempt(3)).renewal_attempts).toBe(3);
    clock.advance(2 * 60_000);
    token = await t.signIn(email);
    expect((await waitForRenewalAttempt(4)).renewal_attempts).toBe(4);
    clock.set(expires + 1000);
    token = await t.signIn(email);
    const ended = await waitForCertificate(t, token, 'www.life.example', ['expired']);
    expect(ended.status).toBe('expired');
    expect((await status('www.life.example')).has_certificate).toBe(false);
  }, 90_000);

  async function waitForRenewalAttempt(n: number) {
    for (let i = 0; i < 100; i++) {
      const c = await waitForCertificate(t, token, 'www.life.example', [
        'renewing',
        'issued',
        'expired',
        'failed',
      ]);
      if (c.renewal_attempts === n && c.error_message !== null) return c;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `no renewal attempt ${n}: ${JSON.stringify(await waitForCertificate(t, token, 'www.life.example', ['renewing', 'issued', 'expired', 'failed']))}`,
    );
  }
});
