import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { AcmeClients } from '../acme/acme-clients.ts';
import type { CertificatesContext } from '../certificates-context.ts';
import type { CertificatePatch, CertificatesRepository } from '../shared/certificates-repository.ts';
import { PUBLISHED_STEPS } from '../shared/certificates-repository.ts';
import type { Certificate } from '../certificates-tables.ts';
import type { ChallengeRecords } from './challenge-records.ts';
import { IssuanceSteps, OwnCheckFailed, type StepOutcome } from './issuance-steps.ts';
import type { ResolutionChecks } from './resolution-checks.ts';
import { IdleBackoffPoller } from '../../../kernel/runtime/idle-backoff-poller.ts';

const LEASE_MS = 60_000;
/** Waits up to this long stay in the process holding the job; longer ones go back to the table. */
const IN_PROCESS_WAIT_MS = 5_000;
const CONCURRENCY = 8;
/** How often (on the module's clock) renewals and expiries are looked for. */
const RENEWAL_SCAN_MS = 30_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The wait after the n-th renewal round failed in a row: 1 h, 2 h, 4 h, ... at most a day. */
export const renewalBackoffMs = (failures: number): number =>
  Math.min(DAY, HOUR * 2 ** Math.max(0, failures - 1));

/**
 * Runs certificate orders in the background: claims due jobs (several processes share them),
 * takes each through its steps, fails over to the next provider when one fails, and renews and
 * expires certificates as the clock says. Progress is in the table, so a restart loses nothing.
 */
export class IssuanceEngine {
  readonly claim = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly steps: IssuanceSteps;
  private readonly running = new Map<number, Promise<void>>();
  private readonly poller = new IdleBackoffPoller(
    () => this.tick(),
    (error) => this.ctx.log.error({ err: error }, 'certificate engine round failed'),
  );
  private polling = false;
  private stopping = false;
  private lastScan = -Infinity;
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly ctx: CertificatesContext,
    private readonly repo: CertificatesRepository,
    private readonly clients: AcmeClients,
    checks: ResolutionChecks,
    private readonly records: ChallengeRecords,
  ) {
    this.steps = new IssuanceSteps(ctx, clients, checks);
  }

  get stepsOf(): IssuanceSteps {
    return this.steps;
  }

  /**
   * Polls (real time) every `minMs` while jobs are claimed or running, backing off to `maxMs`
   * while idle; a route that queues work wakes it. A scheduled step starts at most `maxMs` late.
   */
  start(minMs = 500, maxMs = 2_000): void {
    if (this.polling) return;
    this.polling = true;
    this.stopping = false;
    this.poller.start(minMs, maxMs);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.polling = false;
    await this.poller.stop();
    for (const wake of this.wakers) wake();
    await Promise.allSettled(this.running.values());
    await this.repo.releaseClaims(this.claim);
  }

  /** Looks for work now (a route just queued some). */
  wake(): void {
    if (this.polling) this.poller.wake();
  }

  /**
   * Runs one certificate's job in this process now, until it waits (for the user, the CA or a
   * schedule) or ends; answers the row as it then is. A job another process holds is left to it.
   */
  async driveNow(id: number): Promise<Certificate | null> {
    const now = this.ctx.clock.now();
    const job = await this.repo.claimOne(id, new Date(now), new Date(now + LEASE_MS), this.claim);
    if (job !== null && !this.running.has(id)) {
      const run = this.drive(job).finally(() => this.running.delete(id));
      this.running.set(id, run);
    }
    await this.running.get(id);
    return this.repo.find(id);
  }

  /** One round: renewals and expiries when due, then every due job (tests call it directly). */
  async runOnce(): Promise<void> {
    await this.scan(true);
    await this.claimAndRun();
    await Promise.allSettled(this.running.values());
  }

  /** A polled round; answers whether any job was claimed or is still being driven. */
  private async tick(): Promise<boolean> {
    await this.scan(false);
    const claimed = await this.claimAndRun();
    return claimed > 0 || this.running.size > 0;
  }

  private async scan(force: boolean): Promise<void> {
    const now = this.ctx.clock.now();
    if (!force && now - this.lastScan < RENEWAL_SCAN_MS) return;
    this.lastScan = now;
    const at = new Date(now);
    for (const cert of await this.repo.expire(at)) await this.withdraw(cert);
    const threshold = new Date(now + this.ctx.settings.renewBeforeDays * DAY);
    for (const cert of await this.repo.dueForRenewal(threshold, at)) {
      await this.repo.update(cert.id, startRenewal(at));
    }
  }

  /** Claims due jobs up to the free slots and drives them; answers how many were claimed. */
  private async claimAndRun(): Promise<number> {
    const free = CONCURRENCY - this.running.size;
    if (free <= 0 || this.stopping) return 0;
    const now = this.ctx.clock.now();
    const jobs = await this.repo.claimDue(new Date(now), new Date(now + LEASE_MS), this.claim, free);
    for (const job of jobs) {
      const run = this.drive(job).finally(() => this.running.delete(job.id));
      this.running.set(job.id, run);
    }
    return jobs.length;
  }

  /** Takes one certificate through its steps while they follow each other quickly. */
  private async drive(claimed: Certificate): Promise<void> {
    let cert: Certificate | null = claimed;
    while (cert !== null && cert.job_step !== null && cert.job_step !== 'await_user' && !this.stopping) {
      const before: Certificate = cert;
      let result: StepOutcome;
      try {
        if (before.job_step === 'publish' && before.zone_id !== null) {
          await this.records.sync(Number(before.zone_id), dnsIdentifiers(before));
        }
        result = await this.steps.run(before);
      } catch (error) {
        result = await this.failure(before, error as Error);
      }
      const now = this.ctx.clock.now();
      const keep =
        result.next !== null && result.next !== 'await_user' && result.delayMs <= IN_PROCESS_WAIT_MS;
      cert = await this.repo.updateClaimed(before.id, this.claim, {
        ...result.patch,
        job_step: result.next,
        next_attempt_at:
          result.next === null || result.next === 'await_user' ? null : new Date(now + result.delayMs),
        lease_until: keep ? new Date(now + LEASE_MS) : null,
        claimed_by: keep ? this.claim : null,
        updated_at: new Date(now),
      });
      if (cert === null) return; // revoked or deleted meanwhile: it is not ours any more
      this.ctx.log.debug(
        { certificate: cert.id, step: before.job_step, next: cert.job_step },
        'certificate step',
      );
      await this.after(before, cert);
      if (!keep) return;
      if (result.delayMs > 0) await this.sleep(result.delayMs);
    }
    if (cert !== null && this.stopping) {
      await this.repo.updateClaimed(cert.id, this.claim, { claimed_by: null, lease_until: null });
    }
  }

  /** What follows a saved step: an issuance counted, challenge records withdrawn once not needed. */
  private async after(before: Certificate, cert: Certificate): Promise<void> {
    if (cert.status === 'issued' && before.status !== 'issued') {
      if (cert.registered_domain !== null) {
        await this.repo.recordIssuance(
          cert.id,
          cert.registered_domain,
          cert.issued_at ?? new Date(this.ctx.clock.now()),
        );
      }
      this.ctx.log.info(
        {
          certificate: cert.id,
          domain: cert.domain,
          issuer: cert.issuer,
          serial: cert.serial,
          expires_at: cert.expires_at,
        },
        before.status === 'renewing' ? 'certificate renewed' : 'certificate issued',
      );
    }
    if (cert.status === 'failed' && before.status !== 'failed') {
      this.ctx.log.warn(
        { certificate: cert.id, domain: cert.domain, error: cert.error_message },
        'certificate order failed',
      );
    }
    const wasPublished = before.job_step !== null && PUBLISHED_STEPS.includes(before.job_step);
    const isPublished = cert.job_step !== null && PUBLISHED_STEPS.includes(cert.job_step);
    if (wasPublished && !isPublished) await this.withdraw(before);
  }

  /** Withdraws a certificate's dns-01 records (the union with other orders' stays). */
  async withdraw(cert: Certificate): Promise<void> {
    if (cert.challenge_method !== 'dns_automatic' || cert.zone_id === null) return;
    try {
      await this.records.sync(Number(cert.zone_id), dnsIdentifiers(cert));
    } catch (error) {
      this.ctx.log.warn({ err: error, certificate: cert.id }, 'could not withdraw challenge records');
    }
  }

  /**
   * A step failed. The CA's refusal (or no answer) moves the order to the next provider, once per
   * provider; our own checks, a challenge the user answers by hand, or the last provider's failure
   * end it (`failed`). A renewal that fails keeps its certificate and is tried again later.
   */
  private async failure(cert: Certificate, error: Error): Promise<StepOutcome> {
    const stepPatch = (error as { patch?: CertificatePatch }).patch ?? {};
    const provider = stepPatch.provider ?? cert.provider;
    const message = `${provider ?? 'certificate'}: ${await this.reasonOf(provider, error)}`.slice(0, 1000);
    const failedOver =
      provider !== null && provider !== undefined ? [...cert.failover_from, provider] : cert.failover_from;
    const handAnswered = !cert.auto_complete || cert.challenge_method === 'dns_manual';
    const left = this.clients.order(cert.requested_provider).filter((p) => !failedOver.includes(p.name));
    const reset: CertificatePatch = { provider: null, order_url: null, challenges: null, order_key: null };
    if (
      !(error instanceof OwnCheckFailed) &&
      !(handAnswered && cert.job_step !== 'order') &&
      left.length > 0
    ) {
      // Logged here, once: the order's own failure (below) is logged when it is saved.
      this.ctx.log.warn(
        { certificate: cert.id, step: cert.job_step, provider, error: message },
        'certificate provider failed, trying the next',
      );
      return {
        patch: { ...stepPatch, ...reset, failover_from: failedOver, error_message: message },
        next: 'order',
        delayMs: 0,
      };
    }
    if (cert.status === 'renewing' && cert.certificate_pem !== null) {
      this.ctx.log.warn(
        { certificate: cert.id, step: cert.job_step, provider, error: message },
        'certificate renewal failed, tried again later',
      );
      return {
        patch: {
          ...stepPatch,
          ...reset,
          failover_from: [],
          error_message: message,
          renewal_failures: cert.renewal_failures + 1,
        },
        next: 'order',
        delayMs: renewalBackoffMs(cert.renewal_failures + 1),
      };
    }
    return {
      patch: { ...stepPatch, ...reset, status: 'failed', failover_from: failedOver, error_message: message },
      next: null,
      delayMs: 0,
    };
  }

  /**
   * Why a step failed, in words: a CA that cannot be reached is named with its directory URL and
   * the network error (acme-client's own message then says nothing useful); our own checks and
   * the CA's answers are said as they are.
   */
  private async reasonOf(provider: string | null | undefined, error: Error): Promise<string> {
    if (error instanceof OwnCheckFailed || provider === null || provider === undefined) return error.message;
    const configured = this.clients.provider(provider);
    const unreachable = configured === undefined ? null : await this.clients.unreachable(configured);
    return unreachable ?? error.message;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }
}

/** The names a certificate's dns-01 records are published at. */
function dnsIdentifiers(cert: Certificate): string[] {
  return (cert.challenges ?? []).filter((c) => c.type === 'dns-01').map((c) => c.identifier);
}

/**
 * The columns that start a renewal round (the scheduler's, and POST .../renew); the order step
 * counts the attempt (renewal_attempts), each round and each retry after a failed round.
 */
export function startRenewal(at: Date): CertificatePatch {
  return {
    status: 'renewing',
    job_step: 'order',
    next_attempt_at: at,
    last_renewal_at: at,
    failover_from: [],
    error_message: null,
    provider: null,
    order_url: null,
    challenges: null,
    order_key: null,
    claimed_by: null,
    lease_until: null,
    updated_at: at,
  };
}
