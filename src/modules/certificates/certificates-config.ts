import { isIP } from 'node:net';
import { defineConfigSection } from '../../kernel/config/config-section.ts';

/** One certificate authority: a name and its ACME directory (RFC 8555 §7.1.1). */
export interface AcmeProvider {
  readonly name: string;
  readonly directoryUrl: string;
}

export const LETS_ENCRYPT: AcmeProvider = {
  name: 'letsencrypt',
  directoryUrl: 'https://acme-v02.api.letsencrypt.org/directory',
};

/** The certificates module's settings. */
export interface CertificatesSettings {
  /** Tried in order; when one fails for a certificate, the next is (ACME_PROVIDERS). */
  readonly providers: readonly AcmeProvider[];
  /** PEM file of extra roots the ACME client trusts (a local test CA such as pebble's). */
  readonly caFile: string | null;
  /** Contact address given to the CAs when the ACME accounts are created. */
  readonly contactEmail: string | null;
  /** The HTTP-01 listener: port 80 in production; 0 turns it off. */
  readonly httpPort: number;
  /** Its address (ACME_HTTP_HOST): the API's (API_HOST) unless set, so nothing listens wider unasked. */
  readonly httpHost: string;
  /** `host:port` of the resolver the real-time checks ask; null → the system resolver. */
  readonly checkResolver: string | null;
  /** Addresses this server answers HTTP on: an `http` challenge needs the domain to point here. */
  readonly publicAddresses: readonly string[];
  readonly renewBeforeDays: number;
}

export const certificatesConfig = defineConfigSection<CertificatesSettings>('certificates', (env) => {
  const providers: AcmeProvider[] = [];
  for (const entry of env.list('ACME_PROVIDERS', `${LETS_ENCRYPT.name}=${LETS_ENCRYPT.directoryUrl}`)) {
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim() : '';
    const url = eq > 0 ? entry.slice(eq + 1).trim() : '';
    let ok = /^[a-z0-9][a-z0-9_-]{0,31}$/.test(name);
    try {
      ok &&= ['https:', 'http:'].includes(new URL(url).protocol);
    } catch {
      ok = false;
    }
    if (!ok) env.problem(`ACME_PROVIDERS entries are name=https://directory-url, got "${entry}"`);
    else if (providers.some((p) => p.name === name)) env.problem(`ACME_PROVIDERS names "${name}" twice`);
    else providers.push({ name, directoryUrl: url });
  }
  const publicAddresses = env.list('PUBLIC_ADDRESSES', '');
  for (const a of publicAddresses)
    if (isIP(a) === 0) env.problem(`PUBLIC_ADDRESSES: not an IP address: "${a}"`);
  const resolver = env.optional('ACME_CHECK_RESOLVER');
  if (resolver !== null && !/^(\[[0-9a-f:.]+\]|[0-9.]+)(:\d{1,5})?$/i.test(resolver)) {
    env.problem(`ACME_CHECK_RESOLVER must be host:port with an IP address, got "${resolver}"`);
  }
  return {
    providers,
    caFile: env.optional('ACME_CA_FILE'),
    contactEmail: env.optional('ACME_CONTACT_EMAIL'),
    httpPort: env.int('ACME_HTTP_PORT', 80, 0, 65535),
    // API_HOST itself is the kernel's to check; an unset ACME_HTTP_HOST follows it as given.
    httpHost:
      env.raw('ACME_HTTP_HOST') === undefined
        ? env.str('API_HOST', '127.0.0.1')
        : env.host('ACME_HTTP_HOST', '127.0.0.1'),
    checkResolver: resolver,
    publicAddresses,
    renewBeforeDays: env.int('CERT_RENEW_BEFORE_DAYS', 30, 1, 365),
  };
});
