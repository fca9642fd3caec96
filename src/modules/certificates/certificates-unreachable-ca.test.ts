import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForCertificate } from '../../testing/acme-fixture.ts';
import { createZone } from '../../testing/dns-api-fixture.ts';
import { freePort } from '../../testing/free-port.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { loadConfig } from '../../kernel/config/load-config.ts';
import { CONFIG_SECTIONS } from '../../apps/platform-modules.ts';
import { certificatesConfig } from './certificates-config.ts';
import type { CertificatesModule } from './certificates-module.ts';

const SSL = '/api/v1/ssl';

describe('certificates when no CA can be reached', () => {
  let t: TestApp;
  let token: string;
  let closed: number;
  const logs: Record<string, unknown>[] = [];

  beforeAll(async () => {
    closed = await freePort(); // nothing listens there
    t = await startTestApp({
      env: {
        ACME_PROVIDERS: `letsencrypt=https://ca.invalid/directory,local=https://127.0.0.1:${closed}/directory`,
        LOG_LEVEL: 'info',
      },
      logSink: (line) => logs.push(JSON.parse(line) as Record<string, unknown>),
    });
    ({ token } = await t.signUp());
    await createZone(t, token, 'unreachable.example');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('names the CA, its directory URL and the network error, and logs each once with the order’s id', async () => {
    const res = await t.request('POST', `${SSL}/certificates`, {
      token,
      body: { domain: 'unreachable.example' },
    });
    expect(res.status, res.text).toBe(202);
    const cert = await waitForCertificate(t, token, 'unreachable.example', ['failed'], 90_000);
    const id = cert.id as number;
    expect(cert).toMatchObject({ status: 'failed', failover_from: ['letsencrypt', 'local'] });
    expect(cert.error_message).toBe(
      `local: could not reach https://127.0.0.1:${closed}/directory: connect ECONNREFUSED 127.0.0.1:${closed}`,
    );
    const about = (text: string) => logs.filter((l) => JSON.stringify(l).includes(text));
    // The first CA's failure is logged when the order moves on to the next CA...
    const first = about('could not reach https://ca.invalid/directory');
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      certificate: id,
      provider: 'letsencrypt',
      error: 'letsencrypt: could not reach https://ca.invalid/directory: getaddrinfo ENOTFOUND ca.invalid',
    });
    // ...and the last one's when the order fails.
    const last = about(`could not reach https://127.0.0.1:${closed}/directory`);
    expect(last).toHaveLength(1);
    expect(last[0]).toMatchObject({
      certificate: id,
      error: cert.error_message,
      msg: 'certificate order failed',
    });
    expect(JSON.stringify(logs)).not.toContain("reading 'config'");
  }, 120_000);
});

describe('the HTTP-01 listener’s address', () => {
  const address = (t: TestApp) =>
    (t.node.modules.find((m) => m.name === 'certificates') as CertificatesModule).httpAddress();

  it('defaults ACME_HTTP_HOST to API_HOST (127.0.0.1 when neither is set)', () => {
    const host = (env: Record<string, string>) =>
      loadConfig(env, CONFIG_SECTIONS).section(certificatesConfig).httpHost;
    expect(host({})).toBe('127.0.0.1');
    expect(host({ API_HOST: '10.1.2.3' })).toBe('10.1.2.3');
    expect(host({ API_HOST: '10.1.2.3', ACME_HTTP_HOST: '0.0.0.0' })).toBe('0.0.0.0');
  });

  it('listens on API_HOST unless ACME_HTTP_HOST says otherwise', async () => {
    const port = await freePort();
    const t = await startTestApp({ env: { API_HOST: '127.0.0.1', ACME_HTTP_PORT: String(port) } });
    try {
      expect(address(t)).toEqual({ host: '127.0.0.1', port });
    } finally {
      await t.close();
    }
    const other = await freePort();
    const u = await startTestApp({
      env: { API_HOST: '127.0.0.1', ACME_HTTP_HOST: '::1', ACME_HTTP_PORT: String(other) },
    });
    try {
      expect(address(u)).toEqual({ host: '::1', port: other });
    } finally {
      await u.close();
    }
  });
});
