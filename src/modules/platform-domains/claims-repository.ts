import { sql, type Kysely, type Transaction } from 'kysely';
import type { Claim, ClaimRow, PlatformDomainsTables } from './platform-domains-tables.ts';

type Db = Kysely<PlatformDomainsTables> | Transaction<PlatformDomainsTables>;

type ReadRow = Omit<ClaimRow, 'id'> & { id: number | string };
const read = (r: ReadRow): Claim => ({
  ...r,
  id: Number(r.id),
  user_id: Number(r.user_id),
  zone_id: r.zone_id === null ? null : Number(r.zone_id),
});

/** Claims: one row per `<label>.<suffix>` (unique), owned by an account. */
export class ClaimsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<PlatformDomainsTables>): ClaimsRepository {
    return new ClaimsRepository(trx);
  }

  /** Serialises the account's claims until the transaction ends (the claim limit holds). */
  async lockClaimsOf(userId: number): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`platform-domains:${userId}`}))`.execute(this.db);
  }

  /** Inserts the claim; null when the name is taken (the unique key). */
  async insert(row: Omit<ClaimRow, 'id'>): Promise<Claim | null> {
    const inserted = await this.db
      .insertInto('platform_domains_claims')
      .values(row)
      .onConflict((oc) => oc.columns(['label', 'suffix']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted === undefined ? null : read(inserted);
  }

  async find(userId: number, id: number): Promise<Claim | null> {
    const row = await this.db
      .selectFrom('platform_domains_claims')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row === undefined ? null : read(row);
  }

  async exists(label: string, suffix: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('platform_domains_claims')
      .select('id')
      .where('label', '=', label)
      .where('suffix', '=', suffix)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The account's claims, oldest first. */
  async listOf(userId: number): Promise<Claim[]> {
    const rows = await this.db
      .selectFrom('platform_domains_claims')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    return rows.map(read);
  }

  async update(
    id: number,
    patch: Partial<Pick<ClaimRow, 'zone_id' | 'certificate_requested_at'>>,
  ): Promise<void> {
    await this.db.updateTable('platform_domains_claims').set(patch).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('platform_domains_claims').where('id', '=', id).execute();
  }
}
