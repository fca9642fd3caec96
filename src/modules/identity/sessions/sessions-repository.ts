import type { Kysely, Transaction } from 'kysely';
import type { Realm } from '../../../kernel/auth/principal.ts';
import type { IdentityTables, RefreshTokenRow, SessionRow } from '../identity-tables.ts';

type Db = Kysely<IdentityTables> | Transaction<IdentityTables>;

/** Sessions and their refresh tokens (stored as SHA-256 digests only). */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<IdentityTables>): SessionsRepository {
    return new SessionsRepository(trx);
  }

  async insertSession(
    row: Pick<SessionRow, 'id' | 'realm' | 'subject_id' | 'org_id' | 'created_at'>,
  ): Promise<void> {
    await this.db.insertInto('identity_sessions').values(row).execute();
  }

  async insertRefreshToken(
    row: Pick<
      RefreshTokenRow,
      'subject_id' | 'realm' | 'org_id' | 'session_id' | 'token_hash' | 'expires_at'
    >,
  ): Promise<void> {
    await this.db
      .insertInto('identity_refresh_tokens')
      .values(row as never)
      .execute();
  }

  /**
   * Marks the token used and answers it, in one statement, so two concurrent refreshes with the
   * same token cannot both succeed. null when unknown, expired or already used.
   */
  async consumeRefreshToken(tokenHash: string, now: Date): Promise<RefreshTokenRow | null> {
    const row = await this.db
      .updateTable('identity_refresh_tokens')
      .set({ revoked_at: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | null> {
    const row = await this.db
      .selectFrom('identity_refresh_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ?? null;
  }

  async findSession(id: string): Promise<SessionRow | null> {
    return (
      (await this.db.selectFrom('identity_sessions').selectAll().where('id', '=', id).executeTakeFirst()) ??
      null
    );
  }

  /** When each subject last started a session of the realm into the organization. */
  async lastStarts(realm: Realm, orgId: number, subjectIds: readonly number[]): Promise<Map<number, Date>> {
    if (subjectIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('identity_sessions')
      .select(['subject_id', (eb) => eb.fn.max('created_at').as('last')])
      .where('realm', '=', realm)
      .where('org_id', '=', orgId)
      .where('subject_id', 'in', subjectIds)
      .groupBy('subject_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.subject_id), new Date(r.last as unknown as string)]));
  }

  /** Ends the sessions chosen and revokes their refresh tokens; answers the ids ended now. */
  async endSessions(
    where:
      | { id: string }
      | { realms: readonly Realm[]; subjectId: number }
      | { orgId: number; realms: readonly Realm[]; subjectId?: number },
    now: Date,
  ): Promise<string[]> {
    let q = this.db.updateTable('identity_sessions').set({ ended_at: now }).where('ended_at', 'is', null);
    if ('id' in where) q = q.where('id', '=', where.id);
    else if ('orgId' in where) {
      q = q.where('org_id', '=', where.orgId).where('realm', 'in', where.realms);
      const subjectId = where.subjectId;
      if (subjectId !== undefined) q = q.where('subject_id', '=', subjectId);
    } else q = q.where('subject_id', '=', where.subjectId).where('realm', 'in', where.realms);
    const ended = (await q.returning('id').execute()).map((r) => r.id);
    if (ended.length > 0) {
      await this.db
        .updateTable('identity_refresh_tokens')
        .set({ revoked_at: now })
        .where('session_id', 'in', ended)
        .where('revoked_at', 'is', null)
        .execute();
    }
    return ended;
  }

  /** Revokes the live refresh tokens of a subject that belong to no session (first-release tokens). */
  async revokeSessionlessTokens(realm: Realm, subjectId: number, now: Date): Promise<void> {
    await this.db
      .updateTable('identity_refresh_tokens')
      .set({ revoked_at: now })
      .where('realm', '=', realm)
      .where('subject_id', '=', subjectId)
      .where('session_id', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
