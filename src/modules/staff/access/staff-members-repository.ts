import type { Kysely, Transaction } from 'kysely';
import type { StaffMemberRow, StaffTables } from '../staff-tables.ts';

type Db = Kysely<StaffTables> | Transaction<StaffTables>;

/** The console roles and customer links of an organization's members. */
export class StaffMembersRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<StaffTables>): StaffMembersRepository {
    return new StaffMembersRepository(trx);
  }

  async byMember(orgId: number, userId: number): Promise<StaffMemberRow | null> {
    const row = await this.db
      .selectFrom('staff_members')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Sets a member's console role (a row is made on first use). */
  async setRole(orgId: number, userId: number, role: string, at: Date): Promise<void> {
    await this.db
      .insertInto('staff_members')
      .values({ org_id: orgId, user_id: userId, role, created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet({ role, updated_at: at }))
      .execute();
  }
}
