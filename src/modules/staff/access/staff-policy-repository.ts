import type { Kysely, Transaction } from 'kysely';
import type { StaffPolicyRow, StaffTables } from '../staff-tables.ts';

type Db = Kysely<StaffTables> | Transaction<StaffTables>;

/** The console's sign-in policy of each organization (no row: nothing required). */
export class StaffPolicyRepository {
  constructor(private readonly db: Db) {}

  async policyOf(orgId: number): Promise<StaffPolicyRow | null> {
    const row = await this.db
      .selectFrom('staff_policies')
      .selectAll()
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return row ?? null;
  }

  async setRequireMfa(
    orgId: number,
    requireMfa: boolean,
    since: Date | null,
    at: Date,
  ): Promise<StaffPolicyRow> {
    const values = { require_mfa: requireMfa, require_mfa_since: since, updated_at: at };
    return this.db
      .insertInto('staff_policies')
      .values({ org_id: orgId, ...values })
      .onConflict((oc) => oc.column('org_id').doUpdateSet(values))
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
