import type { Kysely, Transaction } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** The merchant profile's SQL: one row per organization, its fields as given (JSON). */
export class MerchantProfileRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): MerchantProfileRepository {
    return new MerchantProfileRepository(trx);
  }

  async get(orgId: number) {
    return this.db
      .selectFrom('commerce_merchant_profiles')
      .selectAll()
      .where('org_id', '=', orgId)
      .executeTakeFirst();
  }

  async put(orgId: number, profile: Record<string, unknown>, userId: number, at: Date): Promise<void> {
    const json = JSON.stringify(profile) as never;
    await this.db
      .insertInto('commerce_merchant_profiles')
      .values({ org_id: orgId, profile: json, updated_by: userId, updated_at: at })
      .onConflict((oc) =>
        oc.column('org_id').doUpdateSet({ profile: json, updated_by: userId, updated_at: at }),
      )
      .execute();
  }
}
