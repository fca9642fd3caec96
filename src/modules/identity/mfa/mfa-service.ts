import { randomBytes } from 'node:crypto';
import { digestToken } from '../../../kernel/auth/access-token.ts';
import type { Realm } from '../../../kernel/auth/principal.ts';
import { AppError } from '../../../kernel/errors/app-error.ts';
import { AccountsRepository } from '../accounts/accounts-repository.ts';
import type { IdentityContext } from '../identity-context.ts';
import {
  invalidMfaCode,
  invalidMfaToken,
  mfaAlreadyEnabled,
  mfaCodeRejected,
  mfaNotEnabled,
  mfaNotStarted,
} from '../identity-errors.ts';
import { MfaRepository } from './mfa-repository.ts';
import { looksLikeRecoveryCode, newRecoveryCodes, recoveryCodeDigest } from './recovery-codes.ts';
import { newTotpSecret, totpStep, totpUri } from './totp.ts';

/** A second-factor sign-in stays open five minutes. */
export const MFA_TOKEN_TTL_MS = 5 * 60_000;
/** The issuer shown by authenticator apps. */
export const TOTP_ISSUER = 'Hosting Platform';

export interface MfaChallenge {
  mfa_required: true;
  mfa_token: string;
}

/** Who a completed second-factor sign-in is for. */
export interface MfaSignIn {
  readonly userId: number;
  readonly realm: Realm;
  readonly orgId: number | null;
}

const secretContext = (userId: number): string => `identity-totp:${userId}`;

/**
 * TOTP second factor (RFC 6238) of main-site users: enrolment (secret, then a first code that
 * activates it and answers ten recovery codes, shown once), sign-in completion, disabling and new
 * recovery codes. Secrets are sealed at rest; recovery codes and MFA tokens stored as digests.
 * A TOTP code is accepted once (its time step is remembered); a recovery code once.
 */
export class MfaService {
  private readonly repo: MfaRepository;
  private readonly accounts: AccountsRepository;

  constructor(private readonly ctx: IdentityContext) {
    this.repo = new MfaRepository(ctx.db);
    this.accounts = new AccountsRepository(ctx.db);
  }

  async isActive(userId: number): Promise<boolean> {
    return (await this.repo.find(userId))?.enabled_at != null;
  }

  /** Which of these users hold an active second factor. */
  async activeAmong(userIds: readonly number[]): Promise<Set<number>> {
    return new Set(await this.repo.activeAmong(userIds));
  }

  /** An admin's reset: the second factor and its recovery codes go, whatever state they were in. */
  async remove(userId: number): Promise<void> {
    await this.ctx.transaction(async ({ trx }) => this.repo.withTx(trx).remove(userId));
  }

  /** A step-up check: a TOTP code not used before or an unused recovery code (used up). */
  async confirm(userId: number, code: string): Promise<boolean> {
    return this.ctx.transaction(async ({ trx }) => {
      try {
        await this.checkCode(this.repo.withTx(trx), userId, code);
        return true;
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return false;
        throw error;
      }
    });
  }

  async startEnrolment(userId: number): Promise<{ secret: string; otpauth_uri: string }> {
    if (await this.isActive(userId)) throw mfaAlreadyEnabled();
    const user = await this.accounts.findUser(userId);
    const secret = await newTotpSecret();
    await this.repo.putPending(
      userId,
      this.ctx.sealer.sealText(secret, secretContext(userId)),
      new Date(this.ctx.clock.now()),
    );
    return { secret, otpauth_uri: await totpUri(TOTP_ISSUER, user?.email ?? String(userId), secret) };
  }

  async finishEnrolment(userId: number, code: string): Promise<{ recovery_codes: string[] }> {
    const now = this.ctx.clock.now();
    return this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const row = await repo.find(userId, true);
      if (row === null) throw mfaNotStarted();
      if (row.enabled_at !== null) throw mfaAlreadyEnabled();
      const step = await totpStep(
        this.ctx.sealer.openText(row.secret, secretContext(userId)),
        code.trim(),
        now,
      );
      if (step === null) throw invalidMfaCode();
      await repo.activate(userId, step, new Date(now));
      return { recovery_codes: await this.replaceCodes(repo, userId, now) };
    });
  }

  async disable(userId: number, code: string): Promise<{ message: string }> {
    await this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      await this.checkCode(repo, userId, code);
      await repo.remove(userId);
    });
    return { message: 'MFA disabled' };
  }

  async newRecoveryCodes(userId: number, code: string): Promise<{ recovery_codes: string[] }> {
    return this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      await this.checkCode(repo, userId, code);
      return { recovery_codes: await this.replaceCodes(repo, userId, this.ctx.clock.now()) };
    });
  }

  /** A sign-in that passed the password and now waits for the second factor. */
  async challenge(userId: number, realm: Realm, orgId: number | null): Promise<MfaChallenge> {
    const token = randomBytes(32).toString('base64url');
    await this.repo.insertChallenge({
      token_hash: digestToken(token),
      user_id: userId,
      realm,
      org_id: orgId,
      expires_at: new Date(this.ctx.clock.now() + MFA_TOKEN_TTL_MS),
    });
    return { mfa_required: true, mfa_token: token };
  }

  /** The account an MFA token names, while it is open (the budget counts its calls there). */
  async userOfToken(mfaToken: string): Promise<number | null> {
    return (
      (await this.repo.findChallenge(digestToken(mfaToken), new Date(this.ctx.clock.now())))?.user_id ?? null
    );
  }

  /** Completes a sign-in: the MFA token is used once, and only with a good code. */
  async verify(mfaToken: string, code: string): Promise<MfaSignIn> {
    const now = new Date(this.ctx.clock.now());
    const hash = digestToken(mfaToken);
    return this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const challenge = await repo.findChallenge(hash, now);
      if (challenge === null) throw invalidMfaToken();
      await this.checkCode(repo, challenge.user_id, code).catch((error: unknown) => {
        throw error instanceof AppError && error.code === invalidMfaCode.code ? mfaCodeRejected() : error;
      });
      if (!(await repo.useChallenge(hash, now))) throw invalidMfaToken();
      return { userId: challenge.user_id, realm: challenge.realm, orgId: challenge.org_id };
    });
  }

  /** A TOTP code not used before, or an unused recovery code (used up by this call). */
  private async checkCode(repo: MfaRepository, userId: number, code: string): Promise<void> {
    const row = await repo.find(userId, true);
    if (row === null || row.enabled_at === null) throw mfaNotEnabled();
    const now = this.ctx.clock.now();
    const typed = code.trim();
    const step = await totpStep(this.ctx.sealer.openText(row.secret, secretContext(userId)), typed, now);
    if (step !== null && (row.last_step === null || step > Number(row.last_step))) {
      await repo.setLastStep(userId, step);
      return;
    }
    if (
      looksLikeRecoveryCode(typed) &&
      (await repo.useRecoveryCode(userId, recoveryCodeDigest(typed), new Date(now)))
    )
      return;
    throw invalidMfaCode();
  }

  private async replaceCodes(repo: MfaRepository, userId: number, now: number): Promise<string[]> {
    const codes = newRecoveryCodes();
    await repo.replaceRecoveryCodes(userId, codes.map(recoveryCodeDigest), new Date(now));
    return codes;
  }
}
