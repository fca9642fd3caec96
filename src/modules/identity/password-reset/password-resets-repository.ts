import type { Kysely, Transaction } from 'kysely';
import type { IdentityTables, PasswordResetRow } from '../identity-tables.ts';

type Db = Kysely<IdentityTables> | Transaction<IdentityTables>;

/** Single-use reset tokens, stored as SHA-256 digests. */
export class PasswordResetsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<IdentityTables>): PasswordResetsRepository {
    return new PasswordResetsRepository(trx);
  }

  async insert(
    row: Pick<PasswordResetRow, 'token_hash' | 'realm' | 'subject_id' | 'org_id' | 'expires_at'>,
  ): Promise<void> {
    await this.db
      .insertInto('identity_password_resets')
      .values(row as never)
      .execute();
  }

  /** Marks the token used and answers it, when it is known, unused and unexpired. */
  async consume(tokenHash: string, now: Date): Promise<PasswordResetRow | null> {
    const row = await this.db
      .updateTable('identity_password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }
}
