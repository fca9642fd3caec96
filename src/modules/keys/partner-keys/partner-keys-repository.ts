import type { Kysely, Transaction } from 'kysely';
import type { KeysTables, PartnerKeyRow } from '../keys-tables.ts';

type Db = Kysely<KeysTables> | Transaction<KeysTables>;
export type PartnerKey = Omit<PartnerKeyRow, 'id'> & { id: number };

/** Partner keys: found by lookup prefix, revoked by setting revoked_at (the row stays). */
export class PartnerKeysRepository {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<PartnerKey, 'id' | 'revoked_at'>): Promise<PartnerKey> {
    const inserted = await this.db
      .insertInto('keys_partner_keys')
      .values({ ...row, revoked_at: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...inserted, id: Number(inserted.id), org_id: Number(inserted.org_id) };
  }

  async byLookup(lookup: string): Promise<PartnerKey | null> {
    const row = await this.db
      .selectFrom('keys_partner_keys')
      .selectAll()
      .where('lookup', '=', lookup)
      .executeTakeFirst();
    return row === undefined ? null : { ...row, id: Number(row.id), org_id: Number(row.org_id) };
  }

  /**
   * Revokes the organization's live keys of `partner` (only `keyId` when given); answers the ids
   * revoked.
   */
  async revoke(orgId: number, partner: string, keyId: number | null, now: Date): Promise<number[]> {
    let query = this.db
      .updateTable('keys_partner_keys')
      .set({ revoked_at: now })
      .where('org_id', '=', orgId)
      .where('partner', '=', partner)
      .where('revoked_at', 'is', null);
    if (keyId !== null) query = query.where('id', '=', keyId);
    const rows = await query.returning('id').execute();
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  }
}
