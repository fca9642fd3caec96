import type { Kysely, Transaction } from 'kysely';
import type { KeysTables, OrgKeyRow } from '../keys-tables.ts';

type Db = Kysely<KeysTables> | Transaction<KeysTables>;

/** Organization API keys: newest first, revoked ones kept in the list. */
export class OrgKeysRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<OrgKeyRow, 'id' | 'is_active' | 'revoked_at'>): Promise<OrgKeyRow> {
    return this.db
      .insertInto('keys_org_keys')
      .values({
        ...row,
        scopes: JSON.stringify(row.scopes),
        ip_whitelist: JSON.stringify(row.ip_whitelist),
      } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async listOfOrg(orgId: number): Promise<OrgKeyRow[]> {
    return this.db
      .selectFrom('keys_org_keys')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id', 'desc')
      .execute();
  }

  async byLookup(lookup: string): Promise<OrgKeyRow | null> {
    return (
      (await this.db
        .selectFrom('keys_org_keys')
        .selectAll()
        .where('lookup', '=', lookup)
        .executeTakeFirst()) ?? null
    );
  }

  /** The revoked key, or null when no key of this organization has that id. */
  async revoke(orgId: number, keyId: number, now: Date): Promise<OrgKeyRow | null> {
    const row = await this.db
      .updateTable('keys_org_keys')
      .set({ is_active: false, revoked_at: now })
      .where('id', '=', keyId)
      .where('org_id', '=', orgId)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }
}
