import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORGS,
  PASSWORD,
  addMember,
  createOrg,
  staffLogin,
  storefrontCustomer,
} from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

describe('sign-in realms: main, storefront, staff', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('keeps each realm’s tokens to its own routes, and storefront/staff tokens to their own organization', async () => {
    const owner = await t.signUp();
    const staffer = await t.signUp();
    await createOrg(t, owner.token, 'realm-one');
    await createOrg(t, owner.token, 'realm-two');
    await addMember(t, owner.token, 'realm-one', staffer.email, 'member');
    const customer = await storefrontCustomer(t, 'realm-one', 'shopper@example.com');
    const staff = await staffLogin(t, 'realm-one', staffer.email);

    const main = [
      ['GET', '/api/v1/auth/me'],
      ['GET', '/api/v1/dns/zones'],
      ['GET', `${ORGS}`],
    ] as const;
    for (const [method, path] of main) {
      expect((await t.request(method, path, { token: owner.token })).status).toBe(200);
      for (const token of [customer.token, staff.token]) {
        const res = await t.request(method, path, { token });
        expect(res.status, `${path} with another realm's token`).toBe(401);
        expect(res.body).toEqual({ detail: 'Not authenticated' });
      }
    }
    // Organization routes take a member's main-site token, not a staff token.
    expect((await t.request('GET', `${ORGS}/realm-one`, { token: staff.token })).status).toBe(401);

    const me = await t.request('GET', `${ORGS}/realm-one/auth/me`, { token: customer.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: customer.id,
      email: 'shopper@example.com',
      created_at: expect.any(String),
    });
    const staffMe = await t.request('GET', `${ORGS}/realm-one/staff/me`, { token: staff.token });
    expect(staffMe.status).toBe(200);
    expect(staffMe.body).toMatchObject({ role: 'member' });

    for (const [path, good] of [
      [`${ORGS}/realm-one/auth/me`, customer.token],
      [`${ORGS}/realm-one/staff/me`, staff.token],
    ] as const) {
      for (const token of [owner.token, good === customer.token ? staff.token : customer.token]) {
        expect((await t.request('GET', path, { token })).status, path).toBe(401);
      }
      // The same token under another organization's slug.
      expect((await t.request('GET', path.replace('realm-one', 'realm-two'), { token: good })).status).toBe(
        401,
      );
    }
  });

  it('lets one address be a main-site user and a customer of several organizations, separately', async () => {
    const owner = await t.signUp();
    await createOrg(t, owner.token, 'shop-a');
    await createOrg(t, owner.token, 'shop-b');
    const a = await storefrontCustomer(t, 'shop-a', owner.email);
    const b = await storefrontCustomer(t, 'shop-b', owner.email);
    expect(a.id).not.toBe(b.id);
    const again = await t.request('POST', `${ORGS}/shop-a/auth/register`, {
      body: { email: owner.email.toUpperCase(), password: PASSWORD },
    });
    expect(again.status).toBe(409);
    // Credentials of one storefront do not open another's.
    await t.request('POST', `${ORGS}/shop-b/auth/register`, {
      body: { email: 'only-a@example.com', password: PASSWORD },
    });
    const wrongShop = await t.request('POST', `${ORGS}/shop-a/auth/login`, {
      body: { email: 'only-a@example.com', password: PASSWORD },
    });
    expect(wrongShop.status).toBe(401);
    expect(wrongShop.body).toEqual({ detail: 'Incorrect email or password' });
    const unknownOrg = await t.request('POST', `${ORGS}/no-such-shop/auth/login`, {
      body: { email: 'x@example.com', password: PASSWORD },
    });
    expect(unknownOrg.status).toBe(404);
    expect(unknownOrg.body).toEqual({ detail: 'Organization not found' });
  });

  it('admits only members to a staff console, answering others as a wrong password', async () => {
    const owner = await t.signUp();
    const outsider = await t.signUp();
    await createOrg(t, owner.token, 'staff-only');
    const res = await t.request('POST', `${ORGS}/staff-only/staff/auth/login`, {
      body: { email: outsider.email, password: PASSWORD },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Incorrect email or password' });
    await staffLogin(t, 'staff-only', owner.email);
  });

  it('refreshes within the realm, ends a session on sign-out (access and refresh tokens refused at once)', async () => {
    const owner = await t.signUp();
    await createOrg(t, owner.token, 'refresh-org');
    const customer = await storefrontCustomer(t, 'refresh-org', 'refresher@example.com');
    // A storefront refresh token is no main-site refresh token.
    expect(
      (await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: customer.refreshToken } }))
        .status,
    ).toBe(401);
    const refreshed = await t.request('POST', `${ORGS}/refresh-org/auth/refresh`, {
      body: { refresh_token: customer.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    const token = refreshed.body.access_token as string;
    expect((await t.request('GET', `${ORGS}/refresh-org/auth/me`, { token })).status).toBe(200);
    const out = await t.request('POST', `${ORGS}/refresh-org/auth/logout`, {
      body: { refresh_token: refreshed.body.refresh_token },
    });
    expect(out.status).toBe(200);
    expect((await t.request('GET', `${ORGS}/refresh-org/auth/me`, { token })).status).toBe(401);
    expect((await t.request('GET', `${ORGS}/refresh-org/auth/me`, { token: customer.token })).status).toBe(
      401,
    );
    const after = await t.request('POST', `${ORGS}/refresh-org/auth/refresh`, {
      body: { refresh_token: refreshed.body.refresh_token },
    });
    expect(after.status).toBe(401);

    // Main-site sign-out likewise.
    const main = await t.signUp();
    expect(
      (await t.request('POST', '/api/v1/auth/logout', { body: { refresh_token: main.refreshToken } })).body,
    ).toEqual({
      message: 'Logged out',
    });
    expect((await t.request('GET', '/api/v1/auth/me', { token: main.token })).status).toBe(401);
    // Unknown tokens sign out nothing, quietly.
    expect(
      (await t.request('POST', '/api/v1/auth/logout', { body: { refresh_token: 'nothing' } })).status,
    ).toBe(200);
  });
});

describe('failed sign-in limit on the organization realms', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(async () => t?.close());

  // 123 sign-in attempts, each hashing a password: about 17 s alone, longer beside other test files.
  it(
    'refuses the 41st failure in a minute per IP per route, with Retry-After 60',
    { timeout: 60_000 },
    async () => {
      const owner = await t.signUp();
      await createOrg(t, owner.token, 'limited-org');
      const routes = [
        `${ORGS}/limited-org/auth/login`,
        `${ORGS}/limited-org/staff/auth/login`,
        `${ORGS}/limited-org/auth/refresh`,
      ];
      for (const [i, path] of routes.entries()) {
        const headers = { 'x-forwarded-for': `203.0.113.${i + 1}` };
        const body = path.endsWith('refresh')
          ? { refresh_token: 'wrong' }
          : { email: 'who@example.com', password: 'wrong password' };
        for (let n = 0; n < 40; n++)
          expect((await t.request('POST', path, { body, headers })).status).toBe(401);
        const limited = await t.request('POST', path, { body, headers });
        expect(limited.status, path).toBe(429);
        expect(limited.body).toEqual({ detail: 'Too many authentication attempts. Please try again later.' });
        expect(limited.headers.get('retry-after')).toBe('60');
      }
    },
  );
});
