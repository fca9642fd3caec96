import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcme, startAcmeApp, waitForCertificate, type AcmeFixture } from '../../testing/acme-fixture.ts';
import { ZONES } from '../../testing/dns-api-fixture.ts';
import { eventually } from '../../testing/eventually.ts';
import { freePort } from '../../testing/free-port.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const PD = '/api/v1/client/platform-domains';
const SUFFIX = 'apps.example.net';

describe('platform domains: claims under the platform’s suffixes', () => {
  let acme: AcmeFixture;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    acme = await startAcme();
    t = await startAcmeApp(acme, { env: { PLATFORM_DOMAIN_SUFFIXES: SUFFIX } });
    token = (await t.signUp()).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await acme?.close();
  });

  it('hosts the suffix as the platform’s zone: delegated here, no account’s to see, change or create under', async () => {
    const overview = await t.request('GET', PD, { token });
    expect(overview.status, overview.text).toBe(200);
    expect(overview.body).toEqual({ suffixes: [{ suffix: SUFFIX, delegated: true }], claims: [], limit: 5 });
    expect((await t.request('GET', ZONES, { token })).body).toEqual([]);
    for (const [domain, detail] of [
      [SUFFIX, 'Zone already exists'],
      [`mine.${SUFFIX}`, 'Zone is inside a zone held by another account'],
      ['example.net', 'Zone is inside a zone held by another account'],
    ] as const) {
      const res = await t.request('POST', ZONES, { token, body: { domain } });
      expect(res.status, domain).toBe(409);
      expect(res.body).toEqual({ detail });
    }
    await eventually(async () =>
      expect((await acme.resolver.resolveNs(SUFFIX)).sort()).toEqual(['ns1.example.net', 'ns2.example.net']),
    );
  });

  it('answers availability with its reasons', async () => {
    const of = async (label: string, suffix?: string) =>
      t.request(
        'GET',
        `${PD}/availability?label=${encodeURIComponent(label)}${suffix ? `&suffix=${suffix}` : ''}`,
        {
          token,
        },
      );
    expect((await of('My-Site')).body).toEqual({
      label: 'my-site',
      suffix: SUFFIX,
      available: true,
      reason: null,
    });
    expect((await of('ab')).body).toMatchObject({ available: false, reason: 'invalid' });
    expect((await of('-abc')).body).toMatchObject({ available: false, reason: 'invalid' });
    expect((await of('a_b_c')).body).toMatchObject({ available: false, reason: 'invalid' });
    // Past the 63-octet label limit (RFC 1035 §2.3.4) is one more invalid label, not a refused request.
    for (const label of ['a'.repeat(64), 'b'.repeat(300), '']) {
      const long = await of(label);
      expect(long.status, long.text).toBe(200);
      expect(long.body).toEqual({ label, suffix: SUFFIX, available: false, reason: 'invalid' });
    }
    expect((await of('a'.repeat(63))).body).toMatchObject({ available: true, reason: null });
    expect((await of('www')).body).toMatchObject({ available: false, reason: 'reserved' });
    expect((await of('admin', SUFFIX)).body).toMatchObject({ available: false, reason: 'reserved' });
    const unknown = await of('fine-name', 'other.example');
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['query', 'suffix'] });
  });

  it('claims a name: its own zone, delegated by NS from the suffix, and a wildcard certificate', async () => {
    const res = await t.request('POST', `${PD}/claims`, { token, body: { label: 'my-site' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ label: 'my-site', suffix: SUFFIX, fqdn: `my-site.${SUFFIX}` });
    expect(Number.isInteger(res.body.zone_id)).toBe(true);
    expect(['pending', 'validating', 'issued']).toContain(res.body.certificate_status);
    // The delegation in the suffix zone, as the DNS module holds it for this module.
    const dns = t.node.modules.find((m) => m.name === 'dns') as unknown as {
      managedRecords: { list(module: string): Promise<{ name: string; type: string; content: string }[]> };
    };
    const delegation = (await dns.managedRecords.list('platform-domains')).filter((r) => r.type === 'NS');
    expect(delegation.map((r) => `${r.name} ${r.content}`).sort()).toEqual([
      `my-site.${SUFFIX} ns1.example.net.`,
      `my-site.${SUFFIX} ns2.example.net.`,
    ]);
    // The claim's zone answers over DNS, and is the account's: records can be added...
    await eventually(async () =>
      expect((await acme.resolver.resolveSoa(`my-site.${SUFFIX}`)).nsname).toBe('ns1.example.net'),
    );
    const a = await t.request('POST', `${ZONES}/${res.body.zone_id}/records`, {
      token,
      body: { name: 'www', type: 'A', content: '192.0.2.80' },
    });
    expect(a.status, a.text).toBe(201);
    await eventually(async () =>
      expect(await acme.resolver.resolve4(`www.my-site.${SUFFIX}`)).toEqual(['192.0.2.80']),
    );
    // ...but the zone goes with the claim, not through the zone routes.
    const del = await t.request('DELETE', `${ZONES}/${res.body.zone_id}`, { token });
    expect(del.status).toBe(409);
    expect(del.body).toEqual({ detail: 'Zone is managed by platform-domains' });

    const cert = await waitForCertificate(t, token, `*.my-site.${SUFFIX}`);
    expect(cert).toMatchObject({
      status: 'issued',
      san_domains: [`*.my-site.${SUFFIX}`, `my-site.${SUFFIX}`],
    });
    const overview = await t.request('GET', PD, { token });
    expect(overview.body.claims).toEqual([{ ...res.body, certificate_status: 'issued' }]);
    expect((await t.request('GET', `${PD}/availability?label=my-site`, { token })).body).toMatchObject({
      available: false,
      reason: 'taken',
    });
  }, 90_000);

  it('keeps one account’s claim from another, and counts five claims per account', async () => {
    // (Claims also have a budget of 6 an hour per account: each account below stays within it.)
    const other = await t.signUp();
    const third = await t.signUp();
    const taken = await t.request('POST', `${PD}/claims`, { token: third.token, body: { label: 'my-site' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ detail: 'Platform domain already claimed' });
    const mine = (await t.request('GET', PD, { token })).body.claims[0];
    expect((await t.request('DELETE', `${PD}/claims/${mine.id}`, { token: other.token })).status).toBe(404);
    expect(
      (await t.request('POST', `${PD}/claims/${mine.id}/certificate`, { token: other.token })).status,
    ).toBe(404);
    const reserved = await t.request('POST', `${PD}/claims`, { token: third.token, body: { label: 'www' } });
    expect(reserved.status).toBe(422);
    expect(reserved.body.detail[0]).toMatchObject({ loc: ['body', 'label'], msg: '"www" is reserved' });
    for (let i = 1; i <= 5; i++) {
      const res = await t.request('POST', `${PD}/claims`, {
        token: other.token,
        body: { label: `other-${i}` },
      });
      expect(res.status, res.text).toBe(201);
    }
    const sixth = await t.request('POST', `${PD}/claims`, { token: other.token, body: { label: 'other-6' } });
    expect(sixth.status).toBe(403);
    expect(sixth.body).toEqual({ detail: 'Platform domain claim limit reached (5)' });
  }, 90_000);

  it('deletes a claim with all it made: certificate revoked, delegation and zone gone, name free', async () => {
    const claim = (await t.request('GET', PD, { token })).body.claims[0];
    const res = await t.request('DELETE', `${PD}/claims/${claim.id}`, { token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: claim.id, deleted: true });
    expect((await t.request('GET', `${ZONES}/${claim.zone_id}`, { token })).status).toBe(404);
    const certs = (await t.request('GET', '/api/v1/ssl/certificates', { token })).body.certificates;
    expect(certs.find((c: { domain: string }) => c.domain === `*.my-site.${SUFFIX}`).status).toBe('revoked');
    const dns = t.node.modules.find((m) => m.name === 'dns') as unknown as {
      managedRecords: { list(module: string): Promise<{ name: string }[]> };
    };
    expect(
      (await dns.managedRecords.list('platform-domains')).some((r) => r.name === `my-site.${SUFFIX}`),
    ).toBe(false);
    for (let i = 0; i < 50; i++) {
      try {
        await acme.resolver.resolveSoa(`my-site.${SUFFIX}`);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await expect(acme.resolver.resolve4(`www.my-site.${SUFFIX}`)).rejects.toBeDefined();
    expect((await t.request('GET', `${PD}/availability?label=my-site`, { token })).body.available).toBe(true);
    expect((await t.request('GET', PD, { token })).body.claims).toEqual([]);
  }, 30_000);
});

describe('platform domains before the suffix is delegated, and their budgets', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    // A resolver that does not answer: the suffix is not seen delegated to us.
    t = await startTestApp({
      env: { PLATFORM_DOMAIN_SUFFIXES: SUFFIX, ACME_CHECK_RESOLVER: `127.0.0.1:${await freePort()}` },
    });
    token = (await t.signUp()).token;
  }, 60_000);
  afterAll(async () => t?.close());

  it('a claim before delegation waits for it; asking for its certificate is 409 meanwhile', async () => {
    const res = await t.request('POST', `${PD}/claims`, { token, body: { label: 'early-bird' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.certificate_status).toBe('waiting_for_delegation');
    expect((await t.request('GET', PD, { token })).body.suffixes).toEqual([
      { suffix: SUFFIX, delegated: false },
    ]);
    const again = await t.request('POST', `${PD}/claims/${res.body.id}/certificate`, { token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: `${SUFFIX} is not delegated to this platform's name servers yet` });
    expect((await t.request('DELETE', `${PD}/claims/${res.body.id}`, { token })).status).toBe(200);
  }, 30_000);

  it('budgets: 60 availability checks a minute and 6 claims an hour per account, in the budget shape', async () => {
    for (let i = 0; i < 60; i++) {
      expect((await t.request('GET', `${PD}/availability?label=name-${i}`, { token })).status).toBe(200);
    }
    const refused = await t.request('GET', `${PD}/availability?label=one-more`, { token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many requests for this action. Please wait and try again.',
        action: 'platform_domains.availability',
        retry_after_seconds: 60,
      },
    });
    expect(refused.headers.get('retry-after')).toBe('60');
    // One claim above counted already; five more, each deleted so the claim limit stays clear.
    for (let i = 0; i < 5; i++) {
      const res = await t.request('POST', `${PD}/claims`, { token, body: { label: `budget-${i}` } });
      expect(res.status, res.text).toBe(201);
      expect((await t.request('DELETE', `${PD}/claims/${res.body.id}`, { token })).status).toBe(200);
    }
    const seventh = await t.request('POST', `${PD}/claims`, { token, body: { label: 'budget-x' } });
    expect(seventh.status).toBe(429);
    expect(seventh.body.detail).toMatchObject({
      action: 'platform_domains.claim',
      retry_after_seconds: 3600,
    });
  }, 30_000);
});
