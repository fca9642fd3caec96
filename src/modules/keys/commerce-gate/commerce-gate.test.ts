import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGS, addMember, createOrg } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { COMMERCE_SCOPES, grants, isGrantableScope } from '../../commerce/index.ts';

const needs = (scope: string) => ({
  detail: { code: 'scope_required', message: `This API key needs the ${scope} scope.` },
});

describe('Commerce API scopes', () => {
  it('grants by the scope rules: :write includes :read, commerce:* all, <area>:* its area, nothing without scopes', () => {
    const table: [string[], string, boolean][] = [
      [['commerce.orders:read'], 'commerce.orders:read', true],
      [['commerce.orders:write'], 'commerce.orders:read', true],
      [['commerce.orders:read'], 'commerce.orders:write', false],
      [['commerce.orders:write'], 'commerce.customers:read', false],
      [['commerce:*'], 'commerce.finance:read', true],
      [['commerce:*'], 'commerce.disputes:write', true],
      [['commerce.catalog:*'], 'commerce.catalog:write', true],
      [['commerce.catalog:*'], 'commerce.catalog:read', true],
      [['commerce.catalog:*'], 'commerce.store:read', false],
      [[], 'commerce.store:read', false],
    ];
    for (const [held, needed, ok] of table) expect(grants(held, needed), `${held} → ${needed}`).toBe(ok);
    expect(COMMERCE_SCOPES).toHaveLength(15);
    for (const s of [...COMMERCE_SCOPES, 'commerce:*', 'commerce.orders:*'])
      expect(isGrantableScope(s)).toBe(true);
    for (const s of ['commerce.orders:delete', 'orders:read', 'commerce.rockets:*', '*'])
      expect(isGrantableScope(s)).toBe(false);
  });
});

describe('organization API keys and the Commerce gate', () => {
  let t: TestApp;
  let owner: { token: string; email: string };
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: 'true' } });
    owner = await t.signUp();
    await createOrg(t, owner.token, 'gate-a');
    await createOrg(t, owner.token, 'gate-b');
    for (const slug of ['gate-a', 'gate-b']) {
      expect(
        (
          await t.request('PATCH', `${ORGS}/${slug}/settings`, {
            token: owner.token,
            body: { commerce_enabled: true },
          })
        ).body,
      ).toEqual({
        commerce_enabled: true,
      });
    }
  });
  afterAll(async () => t?.close());

  const newKey = async (slug: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', `${ORGS}/${slug}/api-keys`, {
      token: owner.token,
      body: { label: 'k', ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; raw_key: string };
  };
  const commerce = (slug: string, path: string, headers: Record<string, string> = {}, token?: string) =>
    t.request('GET', `${ORGS}/${slug}/commerce/${path}`, { headers, ...(token ? { token } : {}) });

  it('creates keys (org_ prefix, default 4000 an hour), lists them newest first with revoked ones, revokes', async () => {
    const created = await t.request('POST', `${ORGS}/gate-a/api-keys`, {
      token: owner.token,
      body: { label: 'shop sync', permissions: { scopes: ['commerce.orders:read', 'commerce.catalog:*'] } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      label: 'shop sync',
      permissions: { scopes: ['commerce.orders:read', 'commerce.catalog:*'] },
      rate_limit_per_hour: 4000,
      ip_whitelist: [],
      is_active: true,
      created_at: expect.any(String),
      raw_key: expect.stringMatching(/^org_[A-Za-z0-9_-]{40}$/),
    });
    const second = await newKey('gate-a', { label: 'second' });
    const revoked = await t.request('DELETE', `${ORGS}/gate-a/api-keys/${second.id}`, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: second.id, is_active: false });
    const list = await t.request('GET', `${ORGS}/gate-a/api-keys`, { token: owner.token });
    expect(list.body[0]).toMatchObject({ id: second.id, is_active: false });
    expect(list.body.some((k: { id: number }) => k.id === created.body.id)).toBe(true);
    expect(JSON.stringify(list.body)).not.toContain('raw_key');
    const other = await t.request('DELETE', `${ORGS}/gate-b/api-keys/${created.body.id}`, {
      token: owner.token,
    });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: 'API key not found' });
  });

  it('validates scopes, the hourly limit, label and addresses; members cannot manage keys', async () => {
    const bad = await t.request('POST', `${ORGS}/gate-a/api-keys`, {
      token: owner.token,
      body: { label: 'x', permissions: { scopes: ['commerce.orders:read', 'commerce.orders:delete'] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'permissions', 'scopes', 1]);
    for (const body of [
      { rate_limit_per_hour: 0 },
      { rate_limit_per_hour: 100001 },
      { label: 'x'.repeat(101) },
      { ip_whitelist: ['300.1.1.1'] },
    ]) {
      expect(
        (
          await t.request('POST', `${ORGS}/gate-a/api-keys`, {
            token: owner.token,
            body: { label: 'k', ...body },
          })
        ).status,
      ).toBe(422);
    }
    expect(
      (
        await t.request('POST', `${ORGS}/gate-a/api-keys`, {
          token: owner.token,
          body: { label: 'k', rate_limit_per_hour: 100000 },
        })
      ).status,
    ).toBe(201);
    const member = await t.signUp();
    await addMember(t, owner.token, 'gate-a', member.email, 'member');
    expect((await t.request('GET', `${ORGS}/gate-a/api-keys`, { token: member.token })).status).toBe(403);
    expect(
      (await t.request('POST', `${ORGS}/gate-a/api-keys`, { token: member.token, body: { label: 'k' } }))
        .status,
    ).toBe(403);
  });

  it('answers each failure of the gate, in the order the gate checks them', async () => {
    const key = await newKey('gate-a', { permissions: { scopes: ['commerce.orders:read'] } });
    const h = { 'X-API-Key': key.raw_key };
    expect((await commerce('gate-a', 'orders')).body).toEqual({ detail: 'Missing API key' });
    expect((await commerce('gate-a', 'orders')).status).toBe(401);
    // A key sent as a Bearer token is not read at all.
    const bearer = await t.request('GET', `${ORGS}/gate-a/commerce/orders`, {
      headers: { authorization: `Bearer ${key.raw_key}` },
    });
    expect(bearer.status).toBe(401);
    expect(bearer.body).toEqual({ detail: 'Missing API key' });
    expect(
      (await commerce('gate-a', 'orders', { 'X-API-Key': 'org_unknownunknownunknownunknownunknownunkn' }))
        .body,
    ).toEqual({
      detail: 'Invalid API key',
    });
    expect((await commerce('gate-b', 'orders', h)).status).toBe(404);
    expect((await commerce('gate-b', 'orders', h)).body).toEqual({ detail: 'Organization not found' });
    expect((await commerce('gate-a', 'orders', h)).status).toBe(200);
    expect((await commerce('gate-a', 'products', h)).status).toBe(403);
    expect((await commerce('gate-a', 'products', h)).body).toEqual(needs('commerce.catalog:read'));

    // Commerce switched off: 404 `Commerce is not enabled for this organization.`
    await t.request('PATCH', `${ORGS}/gate-a/settings`, {
      token: owner.token,
      body: { commerce_enabled: false },
    });
    const off = await commerce('gate-a', 'orders', h);
    expect(off.status).toBe(404);
    expect(off.body).toEqual({ detail: 'Commerce is not enabled for this organization.' });
    // ...but a key of another organization gets the earlier failure first.
    expect((await commerce('gate-b', 'orders', h)).body).toEqual({ detail: 'Organization not found' });
    await t.request('PATCH', `${ORGS}/gate-a/settings`, {
      token: owner.token,
      body: { commerce_enabled: true },
    });

    // Revoked: Invalid API key, before anything else about it.
    await t.request('DELETE', `${ORGS}/gate-a/api-keys/${key.id}`, { token: owner.token });
    const revoked = await commerce('gate-b', 'orders', h);
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ detail: 'Invalid API key' });
  });

  it('refuses a key from outside its allow-list (IPv4 and IPv6, CIDR), and answers that before Commerce being off', async () => {
    const key = await newKey('gate-a', {
      permissions: { scopes: ['commerce:*'] },
      ip_whitelist: ['198.51.100.0/24', '2001:db8::/32', '203.0.113.9'],
    });
    const from = (ip: string) =>
      commerce('gate-a', 'orders', { 'X-API-Key': key.raw_key, 'x-forwarded-for': ip });
    for (const ip of ['198.51.100.7', '198.51.100.255', '2001:db8::5', '2001:db8:ffff::1', '203.0.113.9'])
      expect((await from(ip)).status, ip).toBe(200);
    for (const ip of ['198.51.101.1', '203.0.113.8', '2001:db9::1', '10.0.0.1']) {
      const res = await from(ip);
      expect(res.status, ip).toBe(403);
      expect(res.body).toEqual({ detail: 'API key is not allowed from this address' });
    }
  });

  it('counts the hourly limit per key: the next request answers 429 with Retry-After: 3600', async () => {
    const key = await newKey('gate-a', { permissions: { scopes: ['commerce:*'] }, rate_limit_per_hour: 3 });
    for (let i = 0; i < 3; i++)
      expect((await commerce('gate-a', 'events', { 'X-API-Key': key.raw_key })).status).toBe(200);
    const over = await commerce('gate-a', 'events', { 'X-API-Key': key.raw_key });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: 'API key rate limit exceeded' });
    expect(over.headers.get('retry-after')).toBe('3600');
  });

  it('opens each list to its scope, with inheritance; refuses the merchant profile to every key', async () => {
    const routes: [string, string][] = [
      ['orders', 'commerce.orders:read'],
      ['products', 'commerce.catalog:read'],
      ['events', 'commerce.store:read'],
      ['promotions', 'commerce.promotions:write'],
      ['gift-cards', 'commerce.customers:read'],
    ];
    const none = await newKey('gate-a', {});
    const all = await newKey('gate-a', { permissions: { scopes: ['commerce:*'] } });
    const writes = await newKey('gate-a', {
      permissions: { scopes: ['commerce.orders:write', 'commerce.store:write', 'commerce.customers:write'] },
    });
    for (const [path, scope] of routes) {
      expect((await commerce('gate-a', path, { 'X-API-Key': none.raw_key })).body, path).toEqual(
        needs(scope),
      );
      expect((await commerce('gate-a', path, { 'X-API-Key': all.raw_key })).status, path).toBe(200);
      const expected = ['orders', 'events', 'gift-cards'].includes(path) ? 200 : 403;
      expect((await commerce('gate-a', path, { 'X-API-Key': writes.raw_key })).status, path).toBe(expected);
    }
    const profile = await commerce('gate-a', 'merchant-profile', { 'X-API-Key': all.raw_key });
    expect(profile.status).toBe(403);
    expect(profile.body.detail.code).toBe('people_only');
    expect((await commerce('gate-a', 'merchant-profile', {}, owner.token)).status).toBe(200);
  });

  it('lets an owner’s or admin’s token through without scopes; a member 403, a stranger 404', async () => {
    const admin = await t.signUp();
    const member = await t.signUp();
    const stranger = await t.signUp();
    await addMember(t, owner.token, 'gate-b', admin.email, 'admin');
    await addMember(t, owner.token, 'gate-b', member.email, 'member');
    expect((await commerce('gate-b', 'orders', {}, owner.token)).status).toBe(200);
    expect((await commerce('gate-b', 'gift-cards', {}, admin.token)).status).toBe(200);
    expect((await commerce('gate-b', 'orders', {}, member.token)).status).toBe(403);
    expect((await commerce('gate-b', 'orders', {}, stranger.token)).body).toEqual({
      detail: 'Organization not found',
    });
  });

  it('answers Organization inactive to the keys of a deleted organization', async () => {
    await createOrg(t, owner.token, 'gate-gone');
    await t.request('PATCH', `${ORGS}/gate-gone/settings`, {
      token: owner.token,
      body: { commerce_enabled: true },
    });
    const key = await newKey('gate-gone', {
      permissions: { scopes: ['commerce:*'] },
      ip_whitelist: ['192.0.2.1'],
    });
    expect(
      (await t.request('DELETE', `${ORGS}/gate-gone?confirm=gate-gone`, { token: owner.token })).status,
    ).toBe(200);
    // Inactive comes before the allow-list check (this request is from outside it).
    const res = await commerce('gate-gone', 'orders', { 'X-API-Key': key.raw_key });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Organization inactive' });
  });
});
