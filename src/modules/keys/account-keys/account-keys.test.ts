import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGS, createOrg } from '../../../testing/org-fixture.ts';
import { mailTo, startSmtpSink, type SmtpSink } from '../../../testing/smtp-sink.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const KEYS = '/api/v1/auth/me/api-keys';
const REFUSED = { detail: 'Account API keys are not accepted; sign in and send the access token' };

describe('account API keys: created and revoked, accepted nowhere', () => {
  let smtp: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('creates a key (raw_key once, acct_ prefix), mails the owner, lists newest first without raw_key', async () => {
    const user = await t.signUp();
    const res = await t.request('POST', KEYS, {
      token: user.token,
      body: {
        label: 'deploy bot',
        permissions: ['dns:write', 'services:read'],
        ip_whitelist: ['192.0.2.0/24', '2001:db8::1'],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      label: 'deploy bot',
      permissions: ['dns:write', 'services:read'],
      ip_whitelist: ['192.0.2.0/24', '2001:db8::1'],
      is_active: true,
      last_used_at: null,
      created_at: expect.any(String),
      raw_key: expect.stringMatching(/^acct_[A-Za-z0-9_-]{40}$/),
    });
    const notice = await smtp.waitFor((m) => mailTo(m) === user.email.toLowerCase());
    expect(notice.subject).toBe('A new API key was created for your account');
    expect(notice.text).not.toContain(res.body.raw_key);
    await t.request('POST', KEYS, { token: user.token, body: { label: 'second' } });
    const list = await t.request('GET', KEYS, { token: user.token });
    expect(list.body.map((k: { label: string }) => k.label)).toEqual(['second', 'deploy bot']);
    expect(JSON.stringify(list.body)).not.toContain('raw_key');
    expect(list.body[0]).toMatchObject({ permissions: [], ip_whitelist: [], last_used_at: null });
    expect((await t.request('GET', `${KEYS}?limit=1`, { token: user.token })).body).toHaveLength(1);
    expect((await t.request('GET', `${KEYS}?limit=500`, { token: user.token })).status).toBe(200);
    for (const q of ['limit=0', 'limit=501'])
      expect((await t.request('GET', `${KEYS}?${q}`, { token: user.token })).status).toBe(422);
  });

  it('validates label, permission areas and addresses, naming the index', async () => {
    const { token } = await t.signUp();
    expect((await t.request('POST', KEYS, { token, body: { label: '' } })).status).toBe(422);
    expect((await t.request('POST', KEYS, { token, body: { label: 'x'.repeat(101) } })).status).toBe(422);
    const perms = await t.request('POST', KEYS, {
      token,
      body: { label: 'p', permissions: ['dns:read', 'rockets:write', 'dns'] },
    });
    expect(perms.status).toBe(422);
    expect(perms.body.detail.map((d: { loc: unknown }) => d.loc)).toEqual([
      ['body', 'permissions', 1],
      ['body', 'permissions', 2],
    ]);
    const ips = await t.request('POST', KEYS, {
      token,
      body: { label: 'i', ip_whitelist: ['10.0.0.1', '10.0.0.0/33', 'nope', '::1/129'] },
    });
    expect(ips.status).toBe(422);
    expect(ips.body.detail.map((d: { loc: unknown }) => d.loc)).toEqual([
      ['body', 'ip_whitelist', 1],
      ['body', 'ip_whitelist', 2],
      ['body', 'ip_whitelist', 3],
    ]);
    for (const area of [
      'services',
      'containers',
      'cloud_compute',
      'dns',
      'floating_ips',
      'email',
      'storage',
      'websites',
      'billing',
      'support',
    ]) {
      expect(
        (
          await t.request('POST', KEYS, {
            token,
            body: { label: area, permissions: [`${area}:read`, `${area}:write`] },
          })
        ).status,
      ).toBe(201);
    }
  });

  it('revokes: the message, then 404 for a key gone or another user’s', async () => {
    const a = await t.signUp();
    const b = await t.signUp();
    const key = (await t.request('POST', KEYS, { token: a.token, body: { label: 'k' } })).body;
    expect((await t.request('DELETE', `${KEYS}/${key.id}`, { token: b.token })).body).toEqual({
      detail: 'API key not found',
    });
    const del = await t.request('DELETE', `${KEYS}/${key.id}`, { token: a.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: 'API key revoked' });
    const again = await t.request('DELETE', `${KEYS}/${key.id}`, { token: a.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: 'API key not found' });
    expect((await t.request('GET', KEYS, { token: a.token })).body).toEqual([]);
  });

  it('refuses a request carrying an account key in any of four ways, on a DNS and a Commerce route, first of all', async () => {
    const user = await t.signUp();
    await createOrg(t, user.token, 'acct-key-org');
    const raw = (
      await t.request('POST', KEYS, { token: user.token, body: { label: 'k', permissions: ['dns:read'] } })
    ).body.raw_key;
    const carriers: { path: string; headers: Record<string, string> }[] = [];
    for (const path of ['/api/v1/dns/zones', `${ORGS}/acct-key-org/commerce/orders`]) {
      carriers.push(
        { path, headers: { authorization: `Bearer ${raw}` } },
        { path, headers: { 'X-API-Key': raw } },
        { path, headers: { 'x-api-key': raw } },
        { path: `${path}?api_key=${raw}`, headers: {} },
      );
    }
    for (const c of carriers) {
      const res = await t.request('GET', c.path, { headers: c.headers });
      expect(res.status, JSON.stringify(c)).toBe(401);
      expect(res.body).toEqual(REFUSED);
    }
    // Even beside a valid access token, and on a route that would answer 422.
    const both = await t.request('GET', '/api/v1/dns/zones?per_page=0', {
      token: user.token,
      headers: { 'X-Api-Key': raw },
    });
    expect(both.status).toBe(401);
    expect(both.body).toEqual(REFUSED);
    // Any acct_ value counts, valid or not.
    expect(
      (await t.request('GET', '/api/v1/dns/zones', { headers: { authorization: 'Bearer acct_whatever' } }))
        .body,
    ).toEqual(REFUSED);
  });
});
