import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcme, startAcmeApp, waitForCertificate, type AcmeFixture } from '../../testing/acme-fixture.ts';
import { createZone, ZONES } from '../../testing/dns-api-fixture.ts';
import { eventually } from '../../testing/eventually.ts';
import type { RequestOptions, TestApp, TestResponse } from '../../testing/test-app.ts';

const SSL = '/api/v1/ssl';

/** Zone changes reach the DNS server a moment after they commit: look until they have. */
async function gone(acme: AcmeFixture, name: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    try {
      await acme.resolver.resolveTxt(name);
    } catch (error) {
      expect((error as { code?: string }).code).toMatch(/ENOTFOUND|ENODATA/);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} still answers TXT`);
}

/**
 * Certificates issued by a real ACME CA (pebble) that validates against the product: DNS-01 by
 * asking our DNS server, HTTP-01 by fetching from our listener. Every answer and every log line
 * of the run is kept, and searched at the end for the certificates' private keys.
 */
describe('certificates over ACME against a real pebble', () => {
  let acme: AcmeFixture;
  let t: TestApp;
  let token: string;
  let zoneId: number;
  const answers: string[] = [];
  const logs: string[] = [];
  const call = async (
    method: string,
    path: string,
    options: RequestOptions = {},
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<TestResponse<any>> => {
    const res = await t.request(method, path, { token, ...options });
    answers.push(res.text);
    return res;
  };
  const certRow = async (domain: string) =>
    (await t.node.runtime.database.db
      .selectFrom('certificates_certs' as never)
      .selectAll()
      .where('domain' as never, '=', domain as never)
      .orderBy('id' as never, 'desc')
      .executeTakeFirstOrThrow()) as {
      id: number;
      certificate_pem: string | null;
      private_key: Uint8Array | null;
    };

  beforeAll(async () => {
    acme = await startAcme();
    t = await startAcmeApp(acme, { env: { LOG_LEVEL: 'trace' }, logSink: (line) => logs.push(line) });
    token = (await t.signUp()).token;
    zoneId = (await createZone(t, token, 'shop.example')).id;
    for (const name of ['@', 'www', 'api', 'blog']) {
      const res = await call('POST', `${ZONES}/${zoneId}/records`, {
        body: { name, type: 'A', content: '127.0.0.1', ttl: 60 },
      });
      expect(res.status, res.text).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await acme?.close();
  });

  it('issues by DNS-01 through our own DNS server, then withdraws the TXT record', async () => {
    const res = await call('POST', `${SSL}/certificates`, { body: { domain: 'www.shop.example' } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      domain: 'www.shop.example',
      status: 'pending',
      challenge_method: 'dns_automatic',
      zone_id: zoneId,
      san_domains: ['www.shop.example'],
      failover_from: [],
      requested_provider: null,
    });
    const cert = await waitForCertificate(t, token, 'www.shop.example');
    expect(cert.status, String(cert.error_message)).toBe('issued');
    expect(cert).toMatchObject({ issuer: 'pebble', error_message: null, renewal_attempts: 0 });
    expect(cert.serial).toMatch(/^[0-9a-f]+$/);
    expect(cert.fingerprint_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(String(cert.expires_at))).toBeGreaterThan(Date.now());

    // The chain: the stored certificate is signed by pebble's intermediate, itself by its root.
    const leaf = new X509Certificate((await certRow('www.shop.example')).certificate_pem!);
    const intermediate = new X509Certificate(await acme.pebbles.pebble!.intermediate());
    const root = new X509Certificate(await acme.pebbles.pebble!.root());
    expect(leaf.verify(intermediate.publicKey)).toBe(true);
    expect(intermediate.verify(root.publicKey)).toBe(true);
    expect(leaf.subjectAltName).toBe('DNS:www.shop.example');
    expect(leaf.fingerprint256.replace(/:/g, '').toLowerCase()).toBe(cert.fingerprint_sha256);

    // The challenge record is gone from the zone and from DNS.
    const records = await call('GET', `${ZONES}/${zoneId}/records?name=_acme-challenge.www.shop.example`);
    expect(records.body).toEqual([]);
    await gone(acme, '_acme-challenge.www.shop.example');
  }, 90_000);

  it('issues a wildcard that also carries its apex, proven by two TXT values at one name', async () => {
    const res = await call('POST', `${SSL}/certificates`, { body: { domain: '*.shop.example' } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      san_domains: ['*.shop.example', 'shop.example'],
      challenge_method: 'dns_automatic',
    });
    const cert = await waitForCertificate(t, token, '*.shop.example');
    expect(cert.status, String(cert.error_message)).toBe('issued');
    const leaf = new X509Certificate((await certRow('*.shop.example')).certificate_pem!);
    expect(leaf.subjectAltName?.split(', ').sort()).toEqual(['DNS:*.shop.example', 'DNS:shop.example']);
    await gone(acme, '_acme-challenge.shop.example');
  }, 90_000);

  it('issues by HTTP-01 from the product’s own listener', async () => {
    const res = await call('POST', `${SSL}/certificates`, {
      body: { domain: 'api.shop.example', challenge_method: 'http' },
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ challenge_method: 'http' });
    const cert = await waitForCertificate(t, token, 'api.shop.example');
    expect(cert.status, String(cert.error_message)).toBe('issued');
    // The listener answers only tokens of orders in progress.
    const stray = await fetch(`http://127.0.0.1:${acme.httpPort}/.well-known/acme-challenge/unknown-token`);
    expect(stray.status).toBe(404);
  }, 90_000);

  it('dns_manual: 409 until the TXT record can be resolved, then issued', async () => {
    const start = await call('POST', `${SSL}/challenges/start`, {
      body: { domain: 'blog.shop.example', method: 'dns_manual' },
    });
    expect(start.status, start.text).toBe(201);
    expect(start.body).toMatchObject({
      domain: 'blog.shop.example',
      method: 'dns_manual',
      published: false,
      record: { name: '_acme-challenge.blog.shop.example', type: 'TXT' },
      certificate: { status: 'pending' },
    });
    const value = start.body.record.content as string;
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Starting again shows the same challenge (the pending certificate is reused).
    const again = await call('POST', `${SSL}/challenges/start`, {
      body: { domain: 'blog.shop.example', method: 'dns_manual' },
    });
    expect(again.body.record.content).toBe(value);

    const early = await call('POST', `${SSL}/challenges/blog.shop.example/complete`);
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ detail: 'TXT record not found yet' });
    const checks = await call('GET', `${SSL}/challenges/blog.shop.example/status`);
    expect(checks.body).toMatchObject({
      method: 'dns_manual',
      checks: [
        { name: 'txt _acme-challenge.blog.shop.example', ok: false },
        { name: 'certificate', ok: true },
      ],
    });

    // The user publishes it (here in their zone on this server; anywhere the resolver sees works).
    const txt = await call('POST', `${ZONES}/${zoneId}/records`, {
      body: { name: '_acme-challenge.blog', type: 'TXT', content: `"${value}"`, ttl: 60 },
    });
    expect(txt.status, txt.text).toBe(201);
    await eventually(async () => {
      const seen = await call('GET', `${SSL}/challenges/blog.shop.example/status`);
      expect(seen.body.checks[0]).toMatchObject({ ok: true });
    });
    const done = await call('POST', `${SSL}/challenges/blog.shop.example/complete`);
    expect(done.status, done.text).toBe(202);
    const cert = await waitForCertificate(t, token, 'blog.shop.example');
    expect(cert.status, String(cert.error_message)).toBe('issued');
    expect(cert.challenge_method).toBe('dns_manual');
  }, 90_000);

  // A name no earlier order proved: pebble reuses a valid authorization now and then even with
  // PEBBLE_AUTHZREUSE=0 (its test is `rand.Intn(100) > percent`), and a reused one has no challenge.
  it('dns_automatic by hand: the TXT record is published at start, managed, and not the user’s to edit', async () => {
    const start = await call('POST', `${SSL}/challenges/start`, {
      body: { domain: 'cdn.shop.example', method: 'auto' },
    });
    expect(start.status, start.text).toBe(201);
    expect(start.body, JSON.stringify(start.body.certificate)).toMatchObject({
      method: 'dns_automatic',
      published: true,
    });
    const value = start.body.record.content as string;
    await eventually(async () =>
      expect((await acme.resolver.resolveTxt('_acme-challenge.cdn.shop.example')).flat()).toContain(value),
    );
    const listed = await call('GET', `${ZONES}/${zoneId}/records?name=_acme-challenge.cdn.shop.example`);
    expect(listed.body).toHaveLength(1);
    const recordId = listed.body[0].id as number;
    const del = await call('DELETE', `${ZONES}/${zoneId}/records/${recordId}`);
    expect(del.status).toBe(409);
    expect(del.body).toEqual({ detail: 'Record is managed by certificates' });
    const done = await call('POST', `${SSL}/challenges/cdn.shop.example/complete`);
    expect(done.status, done.text).toBe(202);
    expect((await waitForCertificate(t, token, 'cdn.shop.example')).status).toBe('issued');
    await gone(acme, '_acme-challenge.cdn.shop.example');
  }, 90_000);

  it('status: the name’s own certificate, else its parent’s wildcard, else the wildcard under it', async () => {
    const of = async (domain: string) => (await call('GET', `${SSL}/certificates/${domain}/status`)).body;
    const own = await of('www.shop.example');
    expect(own).toMatchObject({ domain: 'www.shop.example', has_certificate: true, wildcard: false });
    expect(own.certificate.domain).toBe('www.shop.example');
    const byParent = await of('other.shop.example');
    expect(byParent).toMatchObject({
      has_certificate: true,
      wildcard: true,
      certificate: { domain: '*.shop.example' },
    });
    // Given the apex its own certificate, the wildcard is not chosen for it...
    const apex = await call('POST', `${SSL}/certificates`, { body: { domain: 'shop.example' } });
    expect(apex.status, apex.text).toBe(202);
    expect((await waitForCertificate(t, token, 'shop.example')).status).toBe('issued');
    expect(await of('shop.example')).toMatchObject({
      wildcard: false,
      certificate: { domain: 'shop.example' },
    });
    // ...until that one is revoked: then the zone's own wildcard covers the apex (a SAN of it).
    expect((await call('DELETE', `${SSL}/certificates/shop.example`)).status).toBe(200);
    expect(await of('shop.example')).toMatchObject({
      has_certificate: true,
      wildcard: true,
      certificate: { domain: '*.shop.example' },
    });
    const none = await of('deep.www.shop.example');
    expect(none).toMatchObject({ has_certificate: false, certificate: null, wildcard: false });
    expect(none.rate_limit).toMatchObject({ registered_domain: 'shop.example', limit: 50, allowed: true });
    expect(none.rate_limit.issued_last_7_days).toBeGreaterThanOrEqual(5);
    expect(none.rate_limit.remaining).toBe(50 - none.rate_limit.issued_last_7_days);
  }, 60_000);

  it('revokes at the CA: pebble lists the certificate as revoked', async () => {
    const before = await call('GET', `${SSL}/certificates/api.shop.example/status`);
    expect(before.body.certificate).toMatchObject({ domain: 'api.shop.example', status: 'issued' });
    const serial = String(before.body.certificate.serial).replace(/^0+/, '');
    const res = await call('DELETE', `${SSL}/certificates/api.shop.example`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ domain: 'api.shop.example', status: 'revoked' });
    expect(await acme.pebbles.pebble!.certStatus(serial)).toBe('Revoked');
    // The name is still covered, by the zone's wildcard.
    const after = await call('GET', `${SSL}/certificates/api.shop.example/status`);
    expect(after.body).toMatchObject({
      has_certificate: true,
      wildcard: true,
      certificate: { domain: '*.shop.example' },
    });
    expect((await call('DELETE', `${SSL}/certificates/never.shop.example`)).status).toBe(404);
  }, 30_000);

  it('refuses what it cannot do: bad names 422, another account’s zone 404, twice 409, a wildcard over HTTP 422', async () => {
    const bad = await call('POST', `${SSL}/certificates`, { body: { domain: 'not a name' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'domain'] });
    const other = await t.signUp();
    const theirs = await t.request('POST', `${SSL}/certificates`, {
      token: other.token,
      body: { domain: 'www.shop.example' },
    });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ detail: 'Zone not found' });
    const twice = await call('POST', `${SSL}/certificates`, { body: { domain: 'www.shop.example' } });
    expect(twice.status).toBe(409);
    const wildHttp = await call('POST', `${SSL}/certificates`, {
      body: { domain: '*.www.shop.example', challenge_method: 'http' },
    });
    expect(wildHttp.status).toBe(422);
    expect(wildHttp.body.detail[0]).toMatchObject({ loc: ['body', 'challenge_method'] });
    const list = await call('GET', `${SSL}/certificates?per_page=2`);
    // www, the wildcard, api, blog, cdn, the apex (revoked): every one of the caller's, revoked too.
    expect(list.body.total).toBe(6);
    expect(list.body.certificates).toHaveLength(2);
    expect((await call('GET', `${SSL}/certificates?per_page=101`)).status).toBe(422);
  });

  it('never shows or logs a private key', async () => {
    const keys: string[] = [];
    for (const domain of ['www.shop.example', '*.shop.example', 'blog.shop.example']) {
      const row = await certRow(domain);
      const pem = Buffer.from(
        t.node.runtime.sealer.open(row.private_key!, `certificate-key:${row.id}`),
      ).toString();
      expect(pem).toContain('PRIVATE KEY');
      keys.push(...pem.split('\n').filter((l) => l.length > 40));
    }
    const everything = answers.join('\n') + logs.join('');
    expect(logs.filter((l) => l.includes('certificate issued')).length).toBe(6);
    expect(everything).not.toContain('PRIVATE KEY');
    for (const line of keys) expect(everything.includes(line)).toBe(false);
  });
});
