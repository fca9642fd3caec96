/**
 * Test helper: the product and one or more pebble CAs wired together — pebble resolves names
 * through the product's DNS port and connects to its HTTP-01 listener; the product trusts
 * pebble's TLS certificate (ACME_CA_FILE) and checks names through its own DNS server.
 */
import { Resolver } from 'node:dns/promises';
import { expect } from 'vitest';
import { freePort } from './free-port.ts';
import { localCa, type LocalCa } from './local-ca.ts';
import { startPebble, type PebbleServer } from './pebble-server.ts';
import { startTestApp, type TestApp } from './test-app.ts';

export interface AcmeFixture {
  readonly ca: LocalCa;
  readonly dnsPort: number;
  readonly httpPort: number;
  readonly pebbles: Record<string, PebbleServer>;
  /** Env for startTestApp: ports, providers (in the order given), CA trust, resolver. */
  readonly env: Record<string, string>;
  /** A resolver that asks the product's DNS server. */
  readonly resolver: Resolver;
  close(): Promise<void>;
}

/** Starts pebbles named `names` (`refusing` ones require account binding, so they refuse us). */
export async function startAcme(
  names: readonly string[] = ['pebble'],
  refusing: readonly string[] = [],
): Promise<AcmeFixture> {
  const ca = localCa();
  const dnsPort = await freePort();
  const httpPort = await freePort();
  const pebbles: Record<string, PebbleServer> = {};
  for (const name of names) {
    pebbles[name] = await startPebble({
      ca,
      dnsServer: `127.0.0.1:${dnsPort}`,
      httpPort,
      requireEab: refusing.includes(name),
    });
  }
  const resolver = new Resolver({ timeout: 1000, tries: 2 });
  resolver.setServers([`127.0.0.1:${dnsPort}`]);
  return {
    ca,
    dnsPort,
    httpPort,
    pebbles,
    resolver,
    env: {
      DNS_PORT: String(dnsPort),
      ACME_PROVIDERS: names.map((n) => `${n}=${pebbles[n]!.directoryUrl}`).join(','),
      ACME_CA_FILE: ca.caFile,
      ACME_HTTP_PORT: String(httpPort),
      ACME_HTTP_HOST: '127.0.0.1',
      ACME_CHECK_RESOLVER: `127.0.0.1:${dnsPort}`,
      PUBLIC_ADDRESSES: '127.0.0.1',
    },
    async close() {
      for (const p of Object.values(pebbles)) await p.close();
    },
  };
}

export async function startAcmeApp(
  acme: AcmeFixture,
  options: NonNullable<Parameters<typeof startTestApp>[0]> = {},
): Promise<TestApp> {
  return startTestApp({ ...options, env: { ...acme.env, ...options.env } });
}

type Cert = { status: string; [k: string]: unknown };

/** Polls the caller's newest certificate for exactly `domain` until it reaches one of `statuses`. */
export async function waitForCertificate(
  t: TestApp,
  token: string,
  domain: string,
  statuses: readonly string[] = ['issued', 'failed'],
  ms = 60_000,
): Promise<Cert> {
  const deadline = Date.now() + ms;
  let last: Cert | null = null;
  while (Date.now() < deadline) {
    const res = await t.request('GET', '/api/v1/ssl/certificates?per_page=100', { token });
    expect(res.status, res.text).toBe(200);
    last = (res.body.certificates as Cert[]).find((c) => c.domain === domain) ?? null;
    if (last !== null && statuses.includes(last.status)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `certificate ${domain} still ${last?.status ?? 'absent'} after ${ms} ms: ${JSON.stringify(last)}`,
  );
}
