import type { Kysely, Transaction } from 'kysely';
import type { AccountKeyRow, KeysTables } from '../keys-tables.ts';

type Db = Kysely<KeysTables> | Transaction<KeysTables>;

/** Account API keys: listed by owner, deleted for good (a deleted key is gone from every answer). */
export class AccountKeysRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<AccountKeyRow, 'id' | 'is_active' | 'deleted_at'>): Promise<AccountKeyRow> {
    return this.db
      .insertInto('keys_account_keys')
      .values({
        ...row,
        permissions: JSON.stringify(row.permissions),
        ip_whitelist: JSON.stringify(row.ip_whitelist),
      } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async listOfUser(userId: number, limit: number): Promise<AccountKeyRow[]> {
    return this.db
      .selectFrom('keys_account_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** true when the user's live key was deleted now. */
  async delete(userId: number, keyId: number, now: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('keys_account_keys')
      .set({ deleted_at: now, is_active: false })
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
