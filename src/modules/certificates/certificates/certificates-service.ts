import { canAccess, type OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { pageOffset } from '../../../kernel/paging/paging.ts';
import type { ManagedRecords } from '../../dns/index.ts';
import type { AcmeClients } from '../acme/acme-clients.ts';
import {
  parseCertificateName,
  registeredDomainOf,
  type CertificateName,
} from '../shared/certificate-names.ts';
import { certificateView, type CertificateView } from '../shared/certificate-view.ts';
import type { CertificatesContext } from '../certificates-context.ts';
import {
  certificateActive,
  certificateBusy,
  certificateLimitReached,
  certificateNotFound,
  certificateZoneNotFound,
  revocationRefused,
  unknownProvider,
} from '../certificates-errors.ts';
import type { CertificatesRepository } from '../shared/certificates-repository.ts';
import type { Certificate, ChallengeMethod } from '../certificates-tables.ts';
import { startRenewal, type IssuanceEngine } from '../issuance/issuance-engine.ts';

/**
 * Issuances per registered domain in any 7 days (the Let's Encrypt figure; docs/certificates.md,
 * "Limits").
 */
export const WEEKLY_LIMIT = 50;
const WEEK_MS = 7 * 24 * 3_600_000;
const IN_PROGRESS = new Set(['pending', 'validating', 'renewing']);

export type RequestedMethod = 'auto' | ChallengeMethod;

export interface CertificateRequest {
  readonly domain: string;
  readonly route_id?: number | null;
  readonly challenge_method?: RequestedMethod | null;
  readonly provider?: string | null;
}

export interface RateLimitView {
  registered_domain: string;
  issued_last_7_days: number;
  limit: number;
  remaining: number;
  allowed: boolean;
}

export interface CertificateStatusView {
  domain: string;
  has_certificate: boolean;
  certificate: CertificateView | null;
  rate_limit: RateLimitView | null;
  wildcard: boolean;
}

/** Whether a certificate name covers `name`: itself, or as a wildcard one label above it (RFC 6125 §6.4.3). */
function covers(san: string, name: string): boolean {
  if (san === name) return true;
  return san.startsWith('*.') && !name.startsWith('*.') && name.slice(name.indexOf('.') + 1) === san.slice(2);
}

/** The SSL routes' service: request, list, status (the choice rule), renew, revoke. */
export class CertificatesService {
  constructor(
    private readonly ctx: CertificatesContext,
    private readonly repo: CertificatesRepository,
    private readonly zones: ManagedRecords,
    private readonly clients: AcmeClients,
    private readonly engine: IssuanceEngine,
  ) {}

  async list(
    owner: OwnerScope,
    page: number,
    perPage: number,
  ): Promise<{ certificates: CertificateView[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.repo.listOf(owner.userId, perPage, pageOffset(page, perPage)),
      this.repo.countOf(owner.userId),
    ]);
    return { certificates: rows.map(certificateView), total };
  }

  /**
   * Queues a certificate (202). `autoComplete` false (a challenge started by hand) stops the order
   * once its challenges are known, until POST /challenges/{domain}/complete.
   */
  async request(owner: OwnerScope, body: CertificateRequest, autoComplete = true): Promise<Certificate> {
    const name = this.name(body.domain, ['body', 'domain']);
    const provider = body.provider ?? null;
    if (provider !== null && this.clients.provider(provider) === undefined) throw unknownProvider(provider);
    const zoneId = await this.ownedZone(owner, name);
    const method = this.method(body.challenge_method ?? 'auto', name, zoneId);
    const existing = await this.repo.latestOf(owner.userId, name.domain);
    const now = new Date(this.ctx.clock.now());
    if (existing !== null && (IN_PROGRESS.has(existing.status) || this.valid(existing, now))) {
      throw certificateActive(name.domain);
    }
    const registered = registeredDomainOf(name.base);
    if (registered !== null) await this.checkWeeklyLimit(registered, now);
    const cert = await this.repo.insert({
      user_id: owner.userId,
      domain: name.domain,
      route_id: body.route_id ?? null,
      zone_id: zoneId,
      status: 'pending',
      issuer: null,
      challenge_method: method,
      serial: null,
      fingerprint_sha256: null,
      requested_provider: provider,
      error_message: null,
      issued_at: null,
      expires_at: null,
      last_renewal_at: null,
      renewal_attempts: 0,
      renewal_failures: 0,
      san_domains: [...name.sans],
      failover_from: [],
      registered_domain: registered,
      private_key: null,
      certificate_pem: null,
      provider: null,
      order_url: null,
      order_key: null,
      challenges: null,
      auto_complete: autoComplete,
      job_step: 'order',
      job_started_at: null,
      next_attempt_at: now,
      lease_until: null,
      claimed_by: null,
      created_at: now,
      updated_at: now,
    });
    this.engine.wake();
    return cert;
  }

  /**
   * The status answer (`GET /ssl/certificates/{domain}/status`). The certificate chosen is the
   * newest valid one (issued, unexpired, not revoked) for the name itself, else the parent's
   * wildcard, else the wildcard under the name, which carries the name as a SAN (a zone's own
   * wildcard covers its apex so).
   */
  async status(owner: OwnerScope, domain: string): Promise<CertificateStatusView> {
    const name = this.name(domain, ['path', 'domain']);
    const now = new Date(this.ctx.clock.now());
    const candidates = name.wildcard
      ? [name.domain]
      : [name.domain, `*.${name.base.slice(name.base.indexOf('.') + 1)}`, `*.${name.base}`];
    const valid = await this.repo.validFor(owner.userId, candidates, now);
    let chosen: Certificate | null = null;
    for (const candidate of candidates) {
      chosen =
        valid.find((c) => c.domain === candidate && c.san_domains.some((san) => covers(san, name.domain))) ??
        null;
      if (chosen !== null) break;
    }
    const shown = chosen ?? (await this.repo.latestOf(owner.userId, name.domain));
    const registered = registeredDomainOf(name.base);
    return {
      domain: name.domain,
      has_certificate: chosen !== null,
      certificate: shown === null ? null : certificateView(shown),
      rate_limit: registered === null ? null : await this.rateLimit(registered, now),
      wildcard: chosen !== null && chosen.domain.startsWith('*.'),
    };
  }

  /** POST .../renew: a new order for the name's certificate, now (202). */
  async renew(owner: OwnerScope, domain: string): Promise<Certificate> {
    const cert = await this.latest(owner, domain);
    if (IN_PROGRESS.has(cert.status)) throw certificateBusy();
    const now = new Date(this.ctx.clock.now());
    const patch =
      cert.certificate_pem !== null
        ? startRenewal(now)
        : // Never issued (failed): the order starts again from the first provider.
          { ...startRenewal(now), status: 'pending' as const, last_renewal_at: cert.last_renewal_at };
    const updated = (await this.repo.update(cert.id, patch))!;
    this.engine.wake();
    return updated;
  }

  /** DELETE: revokes an issued certificate at its CA (RFC 8555 §7.6), else stops its order. */
  async revoke(owner: OwnerScope, domain: string): Promise<Certificate> {
    const cert = await this.latest(owner, domain);
    const now = new Date(this.ctx.clock.now());
    if (
      cert.certificate_pem !== null &&
      (cert.status === 'issued' || cert.status === 'renewing') &&
      cert.expires_at! > now
    ) {
      const provider = cert.issuer === null ? undefined : this.clients.provider(cert.issuer);
      if (provider === undefined) throw revocationRefused(`provider ${cert.issuer ?? '?'} is not configured`);
      try {
        await (await this.clients.client(provider)).revokeCertificate(cert.certificate_pem);
      } catch (error) {
        throw revocationRefused((error as Error).message);
      }
    }
    const revoked = (await this.repo.update(cert.id, {
      status: 'revoked',
      job_step: null,
      next_attempt_at: null,
      claimed_by: null,
      lease_until: null,
      updated_at: now,
    }))!;
    await this.engine.withdraw(cert);
    return revoked;
  }

  /** The caller's newest certificate for `domain` (404 when none). */
  async latest(owner: OwnerScope, domain: string): Promise<Certificate> {
    const name = this.name(domain, ['path', 'domain']);
    const cert = await this.repo.latestOf(owner.userId, name.domain);
    if (cert === null) throw certificateNotFound();
    return cert;
  }

  name(domain: string, loc: (string | number)[]): CertificateName {
    const name = parseCertificateName(domain);
    if (name === null) throw invalidField(loc, 'Value is not a valid host name', domain);
    return name;
  }

  private valid(cert: Certificate, now: Date): boolean {
    return cert.status === 'issued' && cert.expires_at !== null && cert.expires_at > now;
  }

  /** The zone hosted here that holds the name, when the caller may write it; 404 when another's. */
  private async ownedZone(owner: OwnerScope, name: CertificateName): Promise<number | null> {
    const zone = await this.zones.findZoneFor(name.base);
    if (zone === null) return null;
    if (!canAccess(owner, { user_id: zone.userId, org_id: zone.orgId }, 'write'))
      throw certificateZoneNotFound();
    return zone.zoneId;
  }

  private method(requested: RequestedMethod, name: CertificateName, zoneId: number | null): ChallengeMethod {
    const loc = ['body', 'challenge_method'];
    if (requested === 'auto')
      return zoneId !== null ? 'dns_automatic' : name.wildcard ? 'dns_manual' : 'http';
    if (requested === 'dns_automatic' && zoneId === null) {
      throw invalidField(loc, `dns_automatic needs the zone of ${name.base} hosted here`, requested);
    }
    if (requested === 'http' && name.wildcard) {
      throw invalidField(loc, 'A wildcard certificate needs a DNS challenge (RFC 8555 §7.1.3)', requested);
    }
    return requested;
  }

  private async rateLimit(registered: string, now: Date): Promise<RateLimitView> {
    const { count } = await this.repo.issuancesSince(registered, new Date(now.getTime() - WEEK_MS));
    return {
      registered_domain: registered,
      issued_last_7_days: count,
      limit: WEEKLY_LIMIT,
      remaining: Math.max(0, WEEKLY_LIMIT - count),
      allowed: count < WEEKLY_LIMIT,
    };
  }

  private async checkWeeklyLimit(registered: string, now: Date): Promise<void> {
    const { count, oldest } = await this.repo.issuancesSince(registered, new Date(now.getTime() - WEEK_MS));
    if (count < WEEKLY_LIMIT) return;
    const retryAfterS = Math.max(
      1,
      Math.ceil(((oldest?.getTime() ?? now.getTime()) + WEEK_MS - now.getTime()) / 1000),
    );
    throw certificateLimitReached(registered, retryAfterS);
  }
}
