import { randomBytes } from 'node:crypto';
import {
  digestToken,
  newRefreshToken,
  type AccessTokenClaims,
  type AccessTokens,
} from '../../../kernel/auth/access-token.ts';
import type { Realm } from '../../../kernel/auth/principal.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { IdentityTables } from '../identity-tables.ts';
import type { IdentityContext } from '../identity-context.ts';
import { invalidRefreshToken } from '../identity-errors.ts';
import { sessionsEnded } from '../identity-events.ts';
import { SessionLiveness } from './session-liveness.ts';
import { SessionsRepository } from './sessions-repository.ts';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/** The user realms: a main-site user signs in to the main site and, as a member, to staff consoles. */
export const USER_REALMS: readonly Realm[] = ['main', 'staff'];

/**
 * Sessions of every realm: started by a sign-in, continued by refresh-token rotation, ended by
 * sign-out, a password reset or an organization's deletion — and then refused at once, access
 * tokens included (the kernel asks isLive on every request).
 */
export class SessionsService {
  private readonly repo: SessionsRepository;
  readonly liveness: SessionLiveness;

  constructor(
    private readonly ctx: IdentityContext,
    private readonly tokens: AccessTokens,
  ) {
    this.repo = new SessionsRepository(ctx.db);
    this.liveness = new SessionLiveness(this.repo, () => ctx.clock.now());
  }

  /** Hears sessions ended by other processes. */
  async listen(): Promise<() => Promise<void>> {
    return this.ctx.events.subscribe(sessionsEnded, (e) => this.liveness.markEnded(e.sessionIds));
  }

  /** The kernel's session check: a token without a session id (first release) stands until it expires. */
  isLive = (claims: AccessTokenClaims): boolean | Promise<boolean> =>
    claims.sessionId === undefined ? true : this.liveness.isLive(claims.sessionId);

  async start(realm: Realm, subjectId: number, orgId: number | null): Promise<TokenPair> {
    const id = randomBytes(16).toString('base64url');
    const now = new Date(this.ctx.clock.now());
    const refresh = newRefreshToken();
    await this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      await repo.insertSession({ id, realm, subject_id: subjectId, org_id: orgId, created_at: now });
      await repo.insertRefreshToken({
        subject_id: subjectId,
        realm,
        org_id: orgId,
        session_id: id,
        token_hash: digestToken(refresh),
        expires_at: new Date(now.getTime() + this.ctx.config.refreshTokenTtlS * 1000),
      });
    });
    return this.pair(realm, subjectId, orgId, id, refresh);
  }

  /**
   * Refresh tokens rotate: each works once. Presenting a used one again means it leaked, so every
   * session of that account in that realm ends (OAuth 2.0 Security BCP, refresh token rotation).
   */
  async refresh(realm: Realm, orgId: number | null, refreshToken: string): Promise<TokenPair> {
    const hash = digestToken(refreshToken);
    const now = new Date(this.ctx.clock.now());
    const next = newRefreshToken();
    const outcome = await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      // A token of another realm or organization is not consumed: it is simply not valid here.
      const found = await repo.findRefreshToken(hash);
      if (found === null || found.realm !== realm || (found.org_id ?? null) !== orgId)
        return { ok: false as const };
      const used = await repo.consumeRefreshToken(hash, now);
      if (used === null) return { ok: false as const };
      if (used.session_id !== null) {
        const session = await repo.findSession(used.session_id);
        if (session === null || session.ended_at !== null) return { ok: false as const };
      }
      await repo.insertRefreshToken({
        subject_id: used.subject_id,
        realm,
        org_id: orgId,
        session_id: used.session_id,
        token_hash: digestToken(next),
        expires_at: new Date(now.getTime() + this.ctx.config.refreshTokenTtlS * 1000),
      });
      return { ok: true as const, row: used };
    });
    if (!outcome.ok) {
      await this.onReuse(hash, realm, orgId);
      throw invalidRefreshToken();
    }
    return this.pair(realm, outcome.row.subject_id, orgId, outcome.row.session_id ?? undefined, next);
  }

  /** Sign-out: ends the refresh token's session (whoever presents it may end it). Unknown: nothing. */
  async logout(refreshToken: string): Promise<void> {
    const row = await this.repo.findRefreshToken(digestToken(refreshToken));
    if (row === null) return;
    const now = new Date(this.ctx.clock.now());
    if (row.session_id !== null) await this.end({ id: row.session_id });
    else await this.repo.revokeSessionlessTokens(row.realm, row.subject_id, now);
  }

  /** Ends every session of a subject in the given realms. */
  async endFor(realms: readonly Realm[], subjectId: number): Promise<void> {
    await this.end({ realms, subjectId });
    const now = new Date(this.ctx.clock.now());
    for (const realm of realms) await this.repo.revokeSessionlessTokens(realm, subjectId, now);
  }

  /** Ends every staff and storefront session into an organization. */
  async endOrg(orgId: number): Promise<void> {
    await this.end({ orgId, realms: ['staff', 'storefront'] });
  }

  /** Ends one member's staff sessions into an organization. */
  async endStaff(orgId: number, userId: number): Promise<void> {
    await this.ctx.transaction(async (uow) => {
      const ids = await this.repo
        .withTx(uow.trx)
        .endSessions({ orgId, realms: ['staff'], subjectId: userId }, new Date(this.ctx.clock.now()));
      this.announce(uow, ids);
    });
  }

  /** A session's start, while it stands (null when unknown or ended). */
  async startedAt(sessionId: string): Promise<Date | null> {
    const row = await this.repo.findSession(sessionId);
    return row === null || row.ended_at !== null ? null : new Date(row.created_at);
  }

  /** When each user last signed in to the organization's staff console. */
  lastStaffSignIns(orgId: number, userIds: readonly number[]): Promise<Map<number, Date>> {
    return this.repo.lastStarts('staff', orgId, userIds);
  }

  private async end(where: Parameters<SessionsRepository['endSessions']>[0]): Promise<void> {
    await this.ctx.transaction(async (uow) => {
      this.announce(uow, await this.repo.withTx(uow.trx).endSessions(where, new Date(this.ctx.clock.now())));
    });
  }

  private announce(uow: UnitOfWork<IdentityTables>, ids: string[]): void {
    if (ids.length === 0) return;
    // This process refuses them at once; the others when the event arrives.
    this.liveness.markEnded(ids);
    uow.emit(sessionsEnded, { sessionIds: ids });
  }

  private async onReuse(hash: string, realm: Realm, orgId: number | null): Promise<void> {
    const row = await this.repo.findRefreshToken(hash);
    if (row === null || row.revoked_at === null || row.realm !== realm || (row.org_id ?? null) !== orgId)
      return;
    if (row.session_id !== null) {
      const session = await this.repo.findSession(row.session_id);
      // A token of a session already ended (sign-out, reset) is refused, and that is all.
      if (session === null || session.ended_at !== null) return;
    }
    await this.endFor([realm], row.subject_id);
  }

  private pair(
    realm: Realm,
    subjectId: number,
    orgId: number | null,
    sessionId: string | undefined,
    refresh: string,
  ): TokenPair {
    const ttl = this.ctx.config.accessTokenTtlS;
    return {
      access_token: this.tokens.issue(subjectId, this.ctx.clock.now(), ttl, {
        realm,
        ...(orgId !== null ? { orgId } : {}),
        ...(sessionId !== undefined ? { sessionId } : {}),
      }),
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: ttl,
    };
  }
}
