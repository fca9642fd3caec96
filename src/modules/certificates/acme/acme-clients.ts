import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type * as Acme from 'acme-client';
import type { CertificatesContext } from '../certificates-context.ts';
import type { AcmeProvider } from '../certificates-config.ts';
import { AcmeAccountsRepository, type AcmeAccount } from './acme-accounts-repository.ts';

const accountKeyContext = (provider: string): string => `acme-account:${provider}`;

/** How long the reachability check waits for a CA's directory. */
export const DIRECTORY_CHECK_MS = 10_000;

/**
 * How every ACME request goes out (acme-client shares one axios instance): with a timeout, and
 * retried twice, a second apart, when the CA does not answer or answers 5xx/429 without
 * Retry-After (the library's default waits 75 s in all before a dead CA counts as failed; the
 * next provider should be tried sooner). `caFile` is trusted beside the system roots. The
 * directory URLs are the operator's settings, not customers' input, so these requests do not go
 * through the outbound guard.
 */
export function configureAcmeHttp(caFile: string | null): void {
  acmeCaFile = caFile;
  if (loadingAcme !== null) void loadingAcme.then((acme) => applyAcmeHttp(acme, caFile));
}

let acmeCaFile: string | null = null;
let loadingAcme: Promise<typeof Acme> | null = null;

/**
 * acme-client, loaded on first use and configured as configureAcmeHttp asked: the library and
 * what it brings (axios among others) cost about 27 MiB resident, which a process that issues no
 * certificate (a DNS node) does not pay.
 */
export function loadAcme(): Promise<typeof Acme> {
  loadingAcme ??= import('acme-client').then((acme) => {
    applyAcmeHttp(acme, acmeCaFile);
    return acme;
  });
  return loadingAcme;
}

function applyAcmeHttp(acme: typeof Acme, caFile: string | null): void {
  const defaults = acme.axios.defaults as typeof acme.axios.defaults & {
    acmeSettings: { retryMaxAttempts: number; retryDefaultDelay: number };
  };
  defaults.acmeSettings.retryMaxAttempts = 2;
  defaults.acmeSettings.retryDefaultDelay = 1;
  defaults.timeout = 30_000;
  if (caFile !== null) {
    defaults.httpsAgent = new https.Agent({
      ca: [...tls.rootCertificates, readFileSync(caFile, 'utf8')],
      keepAlive: true,
    });
  }
}

/**
 * One ACME account per provider, made once and shared by every process: its key is created,
 * sealed and stored first (the first process to store wins), then registered with the CA, which
 * answers the same account for the same key (RFC 8555 §7.3.1).
 */
export class AcmeClients {
  private readonly clients = new Map<string, Promise<Acme.Client>>();
  private readonly accounts: AcmeAccountsRepository;

  constructor(private readonly ctx: CertificatesContext) {
    this.accounts = new AcmeAccountsRepository(ctx.db);
  }

  /**
   * Whether the CA can be reached at all: its directory (RFC 8555 §7.1.1) fetched once. Answers
   * `could not reach <directory URL>: <network error>` when it cannot (no such name, connection
   * refused, TLS, no answer in time), else null. acme-client turns a request that got no answer
   * into `Cannot read properties of undefined (reading 'config')`, so a failed step asks this to
   * say what happened.
   */
  async unreachable(provider: AcmeProvider): Promise<string | null> {
    const url = provider.directoryUrl;
    const failure = await new Promise<Error | null>((resolve) => {
      const caFile = this.ctx.settings.caFile;
      const request = url.startsWith('https:')
        ? https.get(url, {
            timeout: DIRECTORY_CHECK_MS,
            ...(caFile !== null ? { ca: [...tls.rootCertificates, readFileSync(caFile, 'utf8')] } : {}),
          })
        : http.get(url, { timeout: DIRECTORY_CHECK_MS });
      request.once('response', (res) => {
        res.resume();
        resolve(null);
      });
      request.once('timeout', () =>
        request.destroy(new Error(`no answer within ${DIRECTORY_CHECK_MS / 1000} s`)),
      );
      request.once('error', resolve);
    });
    return failure === null ? null : `could not reach ${url}: ${failure.message}`;
  }

  provider(name: string): AcmeProvider | undefined {
    return this.ctx.settings.providers.find((p) => p.name === name);
  }

  /** The providers in the order to try for a certificate: the one asked for first, then the rest. */
  order(requested: string | null): AcmeProvider[] {
    const all = [...this.ctx.settings.providers];
    const first = requested === null ? -1 : all.findIndex((p) => p.name === requested);
    if (first > 0) all.unshift(...all.splice(first, 1));
    return all;
  }

  client(provider: AcmeProvider): Promise<Acme.Client> {
    let client = this.clients.get(provider.name);
    if (client === undefined) {
      client = this.open(provider);
      // A failure (the CA unreachable, refusing the account) is retried on the next use.
      client.catch(() => this.clients.delete(provider.name));
      this.clients.set(provider.name, client);
    }
    return client;
  }

  private async open(provider: AcmeProvider): Promise<Acme.Client> {
    const row = await this.account(provider);
    const accountKey = Buffer.from(this.ctx.sealer.open(row.account_key, accountKeyContext(provider.name)));
    const acme = await loadAcme();
    const client = new acme.Client({
      directoryUrl: provider.directoryUrl,
      accountKey,
      ...(row.account_url !== null ? { accountUrl: row.account_url } : {}),
      backoffAttempts: 3,
      backoffMin: 200,
      backoffMax: 2000,
    });
    if (row.account_url === null) {
      const email = this.ctx.settings.contactEmail;
      await client.createAccount({
        termsOfServiceAgreed: true,
        ...(email !== null ? { contact: [`mailto:${email}`] } : {}),
      });
      await this.accounts.setAccountUrl(provider.name, client.getAccountUrl());
    }
    return client;
  }

  /**
   * The provider's stored account; a new key is made, sealed and stored first when it has none, or
   * when the provider's name now points at another CA.
   */
  private async account(provider: AcmeProvider): Promise<AcmeAccount> {
    const row = await this.accounts.find(provider.name);
    if (row !== null && row.directory_url === provider.directoryUrl) return row;
    const key = await (await loadAcme()).crypto.createPrivateEcdsaKey('P-256');
    const sealed = this.ctx.sealer.seal(key, accountKeyContext(provider.name));
    if (row === null) await this.accounts.insertKey(provider.name, provider.directoryUrl, sealed);
    // The provider's name now points at another CA: a new account there.
    else await this.accounts.replaceKey(provider.name, provider.directoryUrl, sealed);
    return this.accounts.get(provider.name);
  }
}
