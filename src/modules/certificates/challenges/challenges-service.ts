import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { challengeRecordName } from '../shared/certificate-names.ts';
import { certificateView, type CertificateView } from '../shared/certificate-view.ts';
import type { CertificatesContext } from '../certificates-context.ts';
import { noChallengeStarted, notPointingHere, txtNotFound } from '../certificates-errors.ts';
import type { CertificatesRepository } from '../shared/certificates-repository.ts';
import type { Certificate, ChallengeMethod } from '../certificates-tables.ts';
import type { CertificatesService, RequestedMethod } from '../certificates/certificates-service.ts';
import type { IssuanceEngine } from '../issuance/issuance-engine.ts';
import { OwnCheckFailed } from '../issuance/issuance-steps.ts';
import type { ResolutionChecks } from '../issuance/resolution-checks.ts';

interface TxtInstruction {
  name: string;
  type: 'TXT';
  content: string;
}

/** POST /challenges/start: what to do, by method. */
export interface ChallengeStartView {
  domain: string;
  method: ChallengeMethod;
  certificate: CertificateView;
  /** dns_*: the TXT record (the first; `records` lists each when a wildcard and its apex need two). */
  record: TxtInstruction | null;
  records: TxtInstruction[];
  /** dns_automatic: the records are published in the caller's zone here. */
  published: boolean;
  /** http: where the CA will look, and what it must find there. */
  url: string | null;
  content: string | null;
}

export interface ChallengeCheck {
  name: string;
  ok: boolean;
  detail: string;
}

const START_WAIT_MS = 20_000;

/** Challenges started and completed by hand, and their real-time checks. */
export class ChallengesService {
  constructor(
    private readonly ctx: CertificatesContext,
    private readonly repo: CertificatesRepository,
    private readonly certificates: CertificatesService,
    private readonly engine: IssuanceEngine,
    private readonly checks: ResolutionChecks,
  ) {}

  /** Creates (or reuses) the pending certificate of the name and answers its instructions. */
  async start(
    owner: OwnerScope,
    domain: string,
    method: RequestedMethod | undefined,
  ): Promise<ChallengeStartView> {
    const name = this.certificates.name(domain, ['body', 'domain']);
    const existing = await this.repo.latestOf(owner.userId, name.domain);
    let cert =
      existing !== null &&
      (existing.status === 'pending' ||
        (existing.status === 'renewing' && existing.job_step === 'await_user'))
        ? existing
        : await this.certificates.request(
            owner,
            { domain: name.domain, challenge_method: method ?? 'auto' },
            false,
          );
    cert = await this.untilChallenges(cert);
    return this.instructions(cert);
  }

  /** Checks what the CA will check, then asks it (202); 409 while the TXT record is not there. */
  async complete(owner: OwnerScope, domain: string): Promise<Certificate> {
    const cert = await this.certificates.latest(owner, domain);
    if (cert.job_step !== 'await_user') {
      if (cert.job_step !== null) return cert; // already on its way
      throw noChallengeStarted();
    }
    if (cert.challenge_method === 'dns_manual') {
      for (const c of cert.challenges ?? []) {
        const seen = await this.checks.txt(challengeRecordName(c.identifier));
        if (seen === null || !seen.includes(c.value)) throw txtNotFound();
      }
    } else if (cert.challenge_method === 'http') {
      try {
        await this.engine.stepsOf.pointsHere(cert.domain);
      } catch (error) {
        if (error instanceof OwnCheckFailed) throw notPointingHere(cert.domain);
        throw error;
      }
    }
    const now = new Date(this.ctx.clock.now());
    const updated = (await this.repo.update(cert.id, {
      auto_complete: true,
      job_step: cert.challenge_method === 'dns_automatic' ? 'propagate' : 'validate',
      job_started_at: now,
      next_attempt_at: now,
      updated_at: now,
    }))!;
    this.engine.wake();
    return updated;
  }

  /** The checks as they stand now: each challenge's record or address, and the order. */
  async status(
    owner: OwnerScope,
    domain: string,
  ): Promise<{ domain: string; method: ChallengeMethod; checks: ChallengeCheck[] }> {
    const cert = await this.certificates.latest(owner, domain);
    const checks: ChallengeCheck[] = [];
    for (const c of cert.challenges ?? []) {
      if (c.type === 'dns-01') {
        const name = challengeRecordName(c.identifier);
        const seen = await this.checks.txt(name);
        checks.push({
          name: `txt ${name}`,
          ok: seen !== null && seen.includes(c.value),
          detail:
            seen === null
              ? 'the resolver did not answer'
              : seen.length === 0
                ? 'no TXT record'
                : `found ${seen.map((v) => `"${v}"`).join(' ')}`,
        });
      }
    }
    if (cert.challenge_method === 'http') {
      const base = cert.domain.replace(/^\*\./, '');
      const found = await this.checks.addresses(base);
      const expected = this.ctx.settings.publicAddresses;
      checks.push({
        name: `points_here ${base}`,
        ok:
          found !== null &&
          found.length > 0 &&
          (expected.length === 0 || found.every((a) => expected.includes(a))),
        detail:
          found === null
            ? 'the resolver did not answer'
            : found.length === 0
              ? 'no address'
              : `resolves to ${found.join(', ')}`,
      });
    }
    checks.push({
      name: 'certificate',
      ok: cert.status !== 'failed' && cert.status !== 'revoked' && cert.status !== 'expired',
      detail: cert.error_message === null ? cert.status : `${cert.status}: ${cert.error_message}`,
    });
    return { domain: cert.domain, method: cert.challenge_method, checks };
  }

  /** Runs the order here until its challenges are known (or it failed); another process's, waits. */
  private async untilChallenges(cert: Certificate): Promise<Certificate> {
    const deadline = Date.now() + START_WAIT_MS;
    let current: Certificate | null = cert;
    while (
      current !== null &&
      current.challenges === null &&
      current.status !== 'failed' &&
      Date.now() < deadline
    ) {
      current = await this.engine.driveNow(current.id);
      if (current !== null && current.challenges === null && current.status !== 'failed') {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    return current ?? cert;
  }

  private instructions(cert: Certificate): ChallengeStartView {
    const records = (cert.challenges ?? [])
      .filter((c) => c.type === 'dns-01')
      .map((c) => ({ name: challengeRecordName(c.identifier), type: 'TXT' as const, content: c.value }));
    const http = (cert.challenges ?? []).find((c) => c.type === 'http-01');
    return {
      domain: cert.domain,
      method: cert.challenge_method,
      certificate: certificateView(cert),
      record: records[0] ?? null,
      records,
      published: cert.challenge_method === 'dns_automatic' && records.length > 0,
      url: http === undefined ? null : `http://${http.identifier}/.well-known/acme-challenge/${http.token}`,
      content: http?.value ?? null,
    };
  }
}
