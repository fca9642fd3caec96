import { X509Certificate } from 'node:crypto';
import type * as acme from 'acme-client';
import { loadAcme, type AcmeClients } from '../acme/acme-clients.ts';
import type { CertificatesContext } from '../certificates-context.ts';
import type { CertificatePatch } from '../shared/certificates-repository.ts';
import type { Certificate, JobStep, StoredChallenge } from '../certificates-tables.ts';
import { challengeRecordName } from '../shared/certificate-names.ts';
import type { ResolutionChecks } from './resolution-checks.ts';

/** What a step did: the columns to save with it, the step to take next (null: done), and when. */
export interface StepOutcome {
  readonly patch: CertificatePatch;
  readonly next: JobStep | null;
  readonly delayMs: number;
}

/** A check of ours failed (not the CA's refusal): no other provider would do better. */
export class OwnCheckFailed extends Error {}

/** How long the published TXT values may take to be seen before the CA is asked anyway. */
const PROPAGATION_WAIT_MS = 120_000;
/** How long an order may stay pending or processing at the CA. */
const ORDER_WAIT_MS = 10 * 60_000;
const POLL_MS = 500;

export const orderKeyContext = (certId: number): string => `certificate-key:${certId}`;

const outcome = (next: JobStep | null, patch: CertificatePatch = {}, delayMs = 0): StepOutcome => ({
  patch,
  next,
  delayMs,
});

/**
 * One step of an ACME order (RFC 8555 §7.1: new order → authorizations → challenges → finalize →
 * certificate), each saved before the next runs, so a process that stops mid-order leaves the
 * order to be taken up where it was: the order URL, its challenges and the key of its CSR are in
 * the row (the key sealed).
 */
export class IssuanceSteps {
  constructor(
    private readonly ctx: CertificatesContext,
    private readonly clients: AcmeClients,
    private readonly checks: ResolutionChecks,
  ) {}

  async run(cert: Certificate): Promise<StepOutcome> {
    switch (cert.job_step) {
      case 'order':
        return this.order(cert);
      case 'publish':
        // The engine publishes before saving this outcome (ChallengeRecords); then wait or go on.
        return outcome(cert.auto_complete ? 'propagate' : 'await_user');
      case 'propagate':
        return this.propagate(cert);
      case 'precheck':
        await this.pointsHere(cert.domain.replace(/^\*\./, ''));
        return outcome('validate');
      case 'validate':
        return this.validate(cert);
      case 'await_order':
        return this.awaitOrder(cert);
      case 'finalize':
        return this.finalize(cert);
      case 'download':
        return this.download(cert);
      default:
        return outcome(null);
    }
  }

  /** Throws OwnCheckFailed unless `name` resolves only to PUBLIC_ADDRESSES (when they are set). */
  async pointsHere(name: string): Promise<void> {
    const expected = this.ctx.settings.publicAddresses;
    if (expected.length === 0) return;
    const found = await this.checks.addresses(name);
    if (found === null || found.length === 0 || !found.every((a) => expected.includes(a))) {
      throw new OwnCheckFailed(`${name} does not resolve to this server (${expected.join(', ')})`);
    }
  }

  private async order(cert: Certificate): Promise<StepOutcome> {
    const provider = this.clients
      .order(cert.requested_provider)
      .find((p) => !cert.failover_from.includes(p.name));
    if (provider === undefined) throw new OwnCheckFailed('No certificate provider left to try');
    // Saved with the outcome, failure or not: a failure below is this provider's.
    const patch: CertificatePatch = { provider: provider.name };
    if (cert.status === 'renewing' && cert.failover_from.length === 0) {
      patch.renewal_attempts = cert.renewal_attempts + 1;
    }
    try {
      const client = await this.clients.client(provider);
      const order = await client.createOrder({
        identifiers: cert.san_domains.map((value) => ({ type: 'dns', value })),
      });
      const type = cert.challenge_method === 'http' ? 'http-01' : 'dns-01';
      const challenges: StoredChallenge[] = [];
      for (const authz of await client.getAuthorizations(order)) {
        if (authz.status === 'valid') continue;
        const challenge = authz.challenges.find((c) => c.type === type);
        if (challenge === undefined) {
          throw new OwnCheckFailed(
            `${provider.name} offers no ${type} challenge for ${authz.identifier.value}`,
          );
        }
        challenges.push({
          identifier: authz.identifier.value,
          wildcard: authz.wildcard === true,
          type,
          token: challenge.token,
          value: await client.getChallengeKeyAuthorization(challenge),
          url: challenge.url,
        });
      }
      const next: JobStep =
        challenges.length === 0
          ? 'await_order'
          : cert.challenge_method === 'dns_automatic'
            ? 'publish'
            : cert.challenge_method === 'http' && cert.auto_complete
              ? 'precheck'
              : 'await_user';
      return outcome(next, {
        ...patch,
        order_url: order.url,
        challenges,
        order_key: null,
        job_started_at: new Date(this.ctx.clock.now()),
      });
    } catch (error) {
      throw Object.assign(error as Error, { patch });
    }
  }

  private async propagate(cert: Certificate): Promise<StepOutcome> {
    for (const c of cert.challenges ?? []) {
      if (c.type !== 'dns-01') continue;
      const seen = await this.checks.txt(challengeRecordName(c.identifier));
      if (seen === null || !seen.includes(c.value)) {
        const waited = this.ctx.clock.now() - new Date(cert.job_started_at ?? 0).getTime();
        // Not seen yet: look again, up to a point; then let the CA decide.
        return waited < PROPAGATION_WAIT_MS ? outcome('propagate', {}, 1000) : outcome('validate');
      }
    }
    return outcome('validate');
  }

  private async validate(cert: Certificate): Promise<StepOutcome> {
    const client = await this.clientOf(cert);
    for (const c of cert.challenges ?? []) {
      try {
        await client.completeChallenge({ type: c.type, url: c.url, token: c.token, status: 'pending' });
      } catch (error) {
        // Asked before (a restart between the request and saving it): the challenge has moved on.
        if (!(await this.challengeMoved(client, cert, c))) throw error;
      }
    }
    return outcome(
      'await_order',
      {
        status: cert.status === 'renewing' ? 'renewing' : 'validating',
        job_started_at: new Date(this.ctx.clock.now()),
      },
      POLL_MS,
    );
  }

  private async challengeMoved(client: acme.Client, cert: Certificate, c: StoredChallenge): Promise<boolean> {
    const order = await client.getOrder({ url: cert.order_url! } as acme.Order);
    for (const authz of await client.getAuthorizations(order)) {
      const found = authz.challenges.find((x) => x.url === c.url);
      if (found !== undefined) return found.status !== 'pending';
    }
    return false;
  }

  private async awaitOrder(cert: Certificate): Promise<StepOutcome> {
    const client = await this.clientOf(cert);
    const order = await client.getOrder({ url: cert.order_url! } as acme.Order);
    switch (order.status) {
      case 'ready':
        return outcome('finalize');
      case 'valid':
        return outcome('download');
      case 'invalid':
        throw new Error(await this.problemOf(client, order));
      default: {
        const waited = this.ctx.clock.now() - new Date(cert.job_started_at ?? 0).getTime();
        if (waited > ORDER_WAIT_MS) throw new Error(`the order is still ${order.status} after 10 minutes`);
        return outcome('await_order', {}, POLL_MS);
      }
    }
  }

  private async finalize(cert: Certificate): Promise<StepOutcome> {
    // The key is made and saved (sealed) before the CSR goes out: a finalize repeated after a
    // restart sends the same key, so the certificate matches the key we hold.
    if (cert.order_key === null) {
      const key = await (await loadAcme()).crypto.createPrivateEcdsaKey('P-256');
      return outcome('finalize', { order_key: this.ctx.sealer.seal(key, orderKeyContext(cert.id)) });
    }
    const client = await this.clientOf(cert);
    const order = await client.getOrder({ url: cert.order_url! } as acme.Order);
    if (order.status !== 'ready') return outcome('await_order');
    const key = Buffer.from(this.ctx.sealer.open(cert.order_key, orderKeyContext(cert.id)));
    const [first] = cert.san_domains;
    const [, csr] = await (
      await loadAcme()
    ).crypto.createCsr(
      {
        ...(first !== undefined && first.length <= 64 ? { commonName: first } : {}),
        altNames: cert.san_domains,
      },
      key,
    );
    await client.finalizeOrder(order, csr);
    return outcome('await_order', {}, POLL_MS);
  }

  private async download(cert: Certificate): Promise<StepOutcome> {
    const client = await this.clientOf(cert);
    const order = await client.getOrder({ url: cert.order_url! } as acme.Order);
    const pem = await client.getCertificate(order);
    const x509 = new X509Certificate(pem);
    return outcome(null, {
      status: 'issued',
      issuer: cert.provider,
      serial: x509.serialNumber.toLowerCase(),
      fingerprint_sha256: x509.fingerprint256.replace(/:/g, '').toLowerCase(),
      issued_at: new Date(this.ctx.clock.now()),
      expires_at: new Date(x509.validTo),
      private_key: cert.order_key,
      certificate_pem: pem,
      order_key: null,
      order_url: null,
      challenges: null,
      error_message: null,
      renewal_failures: 0,
    });
  }

  /** The CA's problem detail (RFC 7807) for an invalid order: its failed challenge's, else the order's. */
  private async problemOf(client: acme.Client, order: acme.Order): Promise<string> {
    for (const authz of await client.getAuthorizations(order)) {
      for (const c of authz.challenges) {
        const detail = (c as { error?: { detail?: string } }).error?.detail;
        if (c.status === 'invalid' && detail !== undefined) return detail;
      }
    }
    return (order as { error?: { detail?: string } }).error?.detail ?? 'the order is invalid';
  }

  private async clientOf(cert: Certificate): Promise<acme.Client> {
    const provider = cert.provider === null ? undefined : this.clients.provider(cert.provider);
    if (provider === undefined)
      throw new OwnCheckFailed(`provider ${cert.provider ?? '?'} is no longer configured`);
    return this.clients.client(provider);
  }
}
