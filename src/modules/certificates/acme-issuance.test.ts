import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcme, startAcmeApp, waitForCertificate, type AcmeFixture } from '../../testing/acme-fixture.ts';
import { createZone, ZONES } from '../../testing/dns-api-fixture.ts';
import type { TestApp } from '../../testing/test-app.ts';

const SSL = '/api/v1/ssl';

describe('certificates over ACME against a real pebble', () => {
  let acme: AcmeFixture;
  let t: TestApp;
  let token: string;
  let zoneId: number;

  beforeAll(async () => {
    acme = await startAcme();
    t = await startAcmeApp(acme);
    token = (await t.signUp()).token;
    zoneId = (await createZone(t, token, 'shop.example')).id;
    for (const name of ['@', 'www', 'api']) {
      const res = await t.request('POST', `${ZONES}/${zoneId}/records`, {
        token,
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
    const res = await t.request('POST', `${SSL}/certificates`, { token, body: { domain: 'www.shop.example' } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      domain: 'www.shop.example',
      status: 'pending',
      challenge_method: 'dns_automatic',
      zone_id: zoneId,
      san_domains: ['www.shop.example'],
      failover_from: [],
    });
    const cert = await waitForCertificate(t, token, 'www.shop.example');
    expect(cert.status, String(cert.error_message)).toBe('issued');
    expect(cert).toMatchObject({ issuer: 'pebble', error_message: null });
    expect(cert.serial).toMatch(/^[0-9a-f]+$/);
    expect(cert.fingerprint_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(String(cert.expires_at))).toBeGreaterThan(Date.now());

    // The chain: the stored certificate is signed by pebble's intermediate, itself by its root.
    const row = await t.node.runtime.database.db
      .selectFrom('certificates_certs' as never)
      .select(['certificate_pem' as never])
      .where('domain' as never, '=', 'www.shop.example' as never)
      .executeTakeFirstOrThrow();
    const pem = (row as { certificate_pem: string }).certificate_pem;
    const leaf = new X509Certificate(pem);
    const intermediate = new X509Certificate(await acme.pebbles.pebble!.intermediate());
    const root = new X509Certificate(await acme.pebbles.pebble!.root());
    expect(leaf.verify(intermediate.publicKey)).toBe(true);
    expect(intermediate.verify(root.publicKey)).toBe(true);
    expect(leaf.subjectAltName).toBe('DNS:www.shop.example');
    expect(leaf.fingerprint256.replace(/:/g, '').toLowerCase()).toBe(cert.fingerprint_sha256);

    // The challenge record is gone from the zone and from DNS.
    const records = await t.request('GET', `${ZONES}/${zoneId}/records?name=_acme-challenge.www.shop.example`, { token });
    expect(records.body).toEqual([]);
    await expect(acme.resolver.resolveTxt('_acme-challenge.www.shop.example')).rejects.toMatchObject({
      code: expect.stringMatching(/ENOTFOUND|ENODATA/),
    });
  }, 90_000);
});
