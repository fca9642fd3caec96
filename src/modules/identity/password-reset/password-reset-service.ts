import { randomBytes } from 'node:crypto';
import { digestToken } from '../../../kernel/auth/access-token.ts';
import { hashPassword } from '../../../kernel/auth/password-hash.ts';
import type { Realm } from '../../../kernel/auth/principal.ts';
import { AccountsRepository } from '../accounts/accounts-repository.ts';
import type { IdentityContext } from '../identity-context.ts';
import { invalidResetToken, tooManyResetRequests } from '../identity-errors.ts';
import { USER_REALMS, type SessionsService } from '../sessions/sessions-service.ts';
import { PasswordResetsRepository } from './password-resets-repository.ts';

/** A reset token works once, for one hour. */
export const RESET_TOKEN_TTL_MS = 3_600_000;
/** Forgot-password counts every request (docs/identity-and-organizations.md, "Password reset"). */
export const RESET_REQUESTS_PER_IP = 10;
export const RESET_REQUESTS_PER_ADDRESS = 3;
export const RESET_WINDOW_MS = 15 * 60_000;

/** Who asks for a reset: the main site and staff consoles reset users, storefronts their customers. */
export type ResetRealm = 'main' | 'storefront';

export interface ResetRequest {
  readonly realm: ResetRealm;
  /** The storefront's organization (storefront realm only). */
  readonly orgId: number | null;
  readonly email: string;
  readonly ip: string;
  /** Where the mailed link points, given the token. */
  readonly link: (token: string) => string;
}

/**
 * Password reset by mail, for every realm: the request always answers the same (whether the
 * address is known or not, and as fast: the mail leaves in the background), is counted per IP and
 * per address, and mails a single-use token valid one hour; using it sets the password and ends
 * every session of the account.
 */
export class PasswordResetService {
  private readonly resets: PasswordResetsRepository;
  private readonly accounts: AccountsRepository;

  constructor(
    private readonly ctx: IdentityContext,
    private readonly sessions: SessionsService,
  ) {
    this.resets = new PasswordResetsRepository(ctx.db);
    this.accounts = new AccountsRepository(ctx.db);
  }

  async request(r: ResetRequest): Promise<void> {
    const now = this.ctx.clock.now();
    const address = r.email.trim().toLowerCase();
    for (const [key, limit] of [
      [`rl:forgot:ip:${r.ip}`, RESET_REQUESTS_PER_IP],
      [`rl:forgot:addr:${r.realm}:${r.orgId ?? 0}:${address}`, RESET_REQUESTS_PER_ADDRESS],
    ] as const) {
      const hit = await this.ctx.bus.slidingWindowHit(key, now, RESET_WINDOW_MS, limit);
      if (!hit.allowed) throw tooManyResetRequests(Math.max(1, Math.ceil(hit.retryAfterMs / 1000)));
    }
    const subject =
      r.realm === 'main'
        ? await this.accounts.findUserByEmail(address)
        : await this.accounts.findCustomerByEmail(r.orgId!, address);
    if (subject === null) return;
    const token = randomBytes(32).toString('base64url');
    await this.resets.insert({
      token_hash: digestToken(token),
      realm: r.realm,
      subject_id: subject.id,
      org_id: r.realm === 'storefront' ? r.orgId : null,
      expires_at: new Date(now + RESET_TOKEN_TTL_MS),
    });
    const message = {
      to: subject.email,
      subject: 'Reset your password',
      text: [
        'Someone asked to reset the password of this account.',
        '',
        `Open this link within one hour to choose a new password:`,
        r.link(token),
        '',
        `Or send this reset token with your new password: ${token}`,
        '',
        'If you did not ask for it, ignore this message: your password stays as it is.',
      ].join('\n'),
    };
    void this.ctx.mail.send(message).catch((error: unknown) => {
      this.ctx.log.error({ err: error }, 'password reset mail not sent');
    });
  }

  /**
   * A single-use link that sets a user's password, mailed on a staff console's behalf: an invite
   * (a new teammate chooses their first password; valid `ttlMs`) or a reset asked by an admin.
   * Using it is the main site's reset (POST /auth/reset-password), which ends every session.
   */
  async mailUserLink(
    userId: number,
    mail: { readonly subject: string; readonly intro: readonly string[]; readonly ttlMs: number },
    link: (token: string) => string,
  ): Promise<boolean> {
    const user = await this.accounts.findUser(userId);
    if (user === null) return false;
    const token = randomBytes(32).toString('base64url');
    await this.resets.insert({
      token_hash: digestToken(token),
      realm: 'main',
      subject_id: userId,
      org_id: null,
      expires_at: new Date(this.ctx.clock.now() + mail.ttlMs),
    });
    const hours = Math.round(mail.ttlMs / 3_600_000);
    void this.ctx.mail
      .send({
        to: user.email,
        subject: mail.subject,
        text: [
          ...mail.intro,
          '',
          `Open this link within ${hours} hour${hours === 1 ? '' : 's'} to choose your password (it works once):`,
          link(token),
          '',
          `Or send this reset token with your new password: ${token}`,
        ].join('\n'),
      })
      .catch((error: unknown) => {
        this.ctx.log.error({ err: error }, 'password link mail not sent');
      });
    return true;
  }

  async reset(realm: ResetRealm, orgId: number | null, token: string, password: string): Promise<void> {
    const now = new Date(this.ctx.clock.now());
    const hash = await hashPassword(password);
    const row = await this.ctx.transaction(async ({ trx }) => {
      const used = await this.resets.withTx(trx).consume(digestToken(token), now);
      // Thrown inside: a token of another realm or organization stays unused (rolled back).
      if (used === null || used.realm !== realm || (used.org_id ?? null) !== orgId) throw invalidResetToken();
      const accounts = this.accounts.withTx(trx);
      if (realm === 'main') await accounts.setUserPassword(used.subject_id, hash);
      else await accounts.setCustomerPassword(used.subject_id, hash);
      return used;
    });
    const realms: readonly Realm[] = realm === 'main' ? USER_REALMS : ['storefront'];
    await this.sessions.endFor(realms, row.subject_id);
  }
}
