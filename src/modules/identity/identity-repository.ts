import { sql, type Kysely } from 'kysely';
import type { IdentityTables, UserRow } from './identity-tables.ts';

export class IdentityRepository {
  constructor(private readonly db: Kysely<IdentityTables>) {}

  /** null when the email (compared case-insensitively) is taken. */
  async insertUser(email: string, passwordHash: string): Promise<UserRow | null> {
    const row = await this.db
      .insertInto('identity_users')
      .values({ email, password_hash: passwordHash } as never)
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returningAll()
      .executeTakeFirst();
    return (row as UserRow | undefined) ?? null;
  }

  async findUserByEmail(email: string): Promise<UserRow | null> {
    const row = await this.db
      .selectFrom('identity_users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', [eb.ref('email')]), '=', email.toLowerCase()))
      .executeTakeFirst();
    return row ?? null;
  }

  async findUserById(id: number): Promise<UserRow | null> {
    return (
      (await this.db.selectFrom('identity_users').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    );
  }

  async insertRefreshToken(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db
      .insertInto('identity_refresh_tokens')
      .values({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt } as never)
      .execute();
  }

  /**
   * Marks the token used and answers its owner, in one statement, so two concurrent refreshes
   * with the same token cannot both succeed. null when unknown, expired or already used.
   */
  async consumeRefreshToken(tokenHash: string, now: Date): Promise<number | null> {
    const row = await this.db
      .updateTable('identity_refresh_tokens')
      .set({ revoked_at: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async isRevokedToken(tokenHash: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('identity_refresh_tokens')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is not', null)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async revokeAllRefreshTokens(userId: number, now: Date): Promise<void> {
    await this.db
      .updateTable('identity_refresh_tokens')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
