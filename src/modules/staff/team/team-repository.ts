import type { Kysely, Transaction } from 'kysely';
import type { StaffMemberRow, StaffTables } from '../staff-tables.ts';

type Db = Kysely<StaffTables> | Transaction<StaffTables>;

/** The team's rows: console roles, names and customer links, and step-ups of staff sessions. */
export class TeamRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<StaffTables>): TeamRepository {
    return new TeamRepository(trx);
  }

  async rowsOf(orgId: number): Promise<StaffMemberRow[]> {
    return this.db.selectFrom('staff_members').selectAll().where('org_id', '=', orgId).execute();
  }

  /** A new teammate's row (or the row of a member who had none yet). */
  async put(
    row: Pick<StaffMemberRow, 'org_id' | 'user_id' | 'role' | 'name' | 'customer_link_mode' | 'customer_id'>,
    at: Date,
  ): Promise<void> {
    await this.db
      .insertInto('staff_members')
      .values({ ...row, created_at: at, updated_at: at })
      .onConflict((oc) =>
        oc.columns(['org_id', 'user_id']).doUpdateSet({
          role: row.role,
          name: row.name,
          customer_link_mode: row.customer_link_mode,
          customer_id: row.customer_id,
          updated_at: at,
        }),
      )
      .execute();
  }

  /** Sets (or clears, with nulls) a teammate's customer link; a row is made on first use. */
  async setLink(
    orgId: number,
    userId: number,
    link: { mode: string | null; customerId: number | null },
    defaultRole: string,
    at: Date,
  ): Promise<void> {
    await this.db
      .insertInto('staff_members')
      .values({
        org_id: orgId,
        user_id: userId,
        role: defaultRole,
        customer_link_mode: link.mode,
        customer_id: link.customerId,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(['org_id', 'user_id'])
          .doUpdateSet({ customer_link_mode: link.mode, customer_id: link.customerId, updated_at: at }),
      )
      .execute();
  }

  async remove(orgId: number, userId: number): Promise<void> {
    await this.db
      .deleteFrom('staff_members')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
    await this.db
      .deleteFrom('staff_step_ups')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .execute();
  }

  async putStepUp(sessionId: string, orgId: number, userId: number, at: Date): Promise<void> {
    await this.db
      .insertInto('staff_step_ups')
      .values({ session_id: sessionId, org_id: orgId, user_id: userId, at })
      .onConflict((oc) => oc.column('session_id').doUpdateSet({ at }))
      .execute();
  }

  async stepUpAt(sessionId: string): Promise<Date | null> {
    const row = await this.db
      .selectFrom('staff_step_ups')
      .select('at')
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return row === undefined ? null : new Date(row.at);
  }
}
