import type { Clock } from '../../kernel/clock.ts';
import { notAuthenticated } from '../../kernel/errors/kernel-errors.ts';
import type { AccessTokens } from '../../kernel/auth/access-token.ts';
import { digestToken, newRefreshToken } from '../../kernel/auth/access-token.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../kernel/auth/password-hash.ts';
import { badCredentials, emailTaken, invalidRefreshToken } from './identity-errors.ts';
import type { IdentityRepository } from './identity-repository.ts';
import type { UserRow } from './identity-tables.ts';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
}

export interface PublicUser {
  id: number;
  email: string;
  created_at: string;
}

export function publicUser(row: UserRow): PublicUser {
  return { id: row.id, email: row.email, created_at: new Date(row.created_at).toISOString() };
}

export class IdentityService {
  constructor(
    private readonly repo: IdentityRepository,
    private readonly tokens: AccessTokens,
    private readonly clock: Clock,
    private readonly accessTtlS: number,
    private readonly refreshTtlS: number,
  ) {}

  async register(email: string, password: string): Promise<PublicUser> {
    const row = await this.repo.insertUser(email.trim(), await hashPassword(password));
    if (row === null) throw emailTaken();
    return publicUser(row);
  }

  /**
   * The same answer, and about the same time, whether the email is unknown or the password wrong:
   * an unknown email is verified against a dummy hash.
   */
  async login(email: string, password: string): Promise<TokenPair> {
    const user = await this.repo.findUserByEmail(email.trim());
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash));
    if (!user || !ok) throw badCredentials();
    return this.issue(user.id);
  }

  /**
   * Refresh tokens rotate: each works once. Presenting a used one again means it leaked, so every
   * token of that user is revoked (OAuth 2.0 Security BCP, refresh token rotation).
   */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const hash = digestToken(refreshToken);
    const now = new Date(this.clock.now());
    const userId = await this.repo.consumeRefreshToken(hash, now);
    if (userId === null) {
      const reusedBy = await this.repo.isRevokedToken(hash);
      if (reusedBy !== null) await this.repo.revokeAllRefreshTokens(reusedBy, now);
      throw invalidRefreshToken();
    }
    return this.issue(userId);
  }

  async me(userId: number): Promise<PublicUser> {
    const user = await this.repo.findUserById(userId);
    if (!user) throw notAuthenticated();
    return publicUser(user);
  }

  private async issue(userId: number): Promise<TokenPair> {
    const now = this.clock.now();
    const refresh = newRefreshToken();
    await this.repo.insertRefreshToken(userId, digestToken(refresh), new Date(now + this.refreshTtlS * 1000));
    return {
      access_token: this.tokens.issue(userId, now, this.accessTtlS),
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: this.accessTtlS,
    };
  }
}
