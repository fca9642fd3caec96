import type { Kysely, Transaction } from 'kysely';
import type { OrgRole } from '../../../kernel/auth/principal.ts';
import type { OrgMemberRow, OrgsTables } from '../orgs-tables.ts';

type Db = Kysely<OrgsTables> | Transaction<OrgsTables>;

/** Memberships: who belongs to which organization, with which role. */
export class OrgMembersRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<OrgsTables>): OrgMembersRepository {
    return new OrgMembersRepository(trx);
  }

  async roleOf(orgId: number, userId: number): Promise<OrgRole | null> {
    const row = await this.db
      .selectFrom('orgs_members')
      .select('role')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role ?? null;
  }

  /** The user's roles in every organization that is not deleted. */
  async rolesOfUser(userId: number): Promise<Map<number, OrgRole>> {
    const rows = await this.db
      .selectFrom('orgs_members')
      .innerJoin('orgs', 'orgs.id', 'orgs_members.org_id')
      .select(['orgs_members.org_id', 'orgs_members.role'])
      .where('orgs_members.user_id', '=', userId)
      .where('orgs.status', '<>', 'deleted')
      .execute();
    return new Map(rows.map((r) => [Number(r.org_id), r.role]));
  }

  async list(orgId: number): Promise<OrgMemberRow[]> {
    return this.db.selectFrom('orgs_members').selectAll().where('org_id', '=', orgId).orderBy('id').execute();
  }

  async find(orgId: number, memberId: number, lock = false): Promise<OrgMemberRow | null> {
    let q = this.db
      .selectFrom('orgs_members')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', memberId);
    if (lock) q = q.forUpdate();
    return (await q.executeTakeFirst()) ?? null;
  }

  async findOwner(orgId: number): Promise<OrgMemberRow | null> {
    const row = await this.db
      .selectFrom('orgs_members')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('role', '=', 'owner')
      .forUpdate()
      .executeTakeFirst();
    return row ?? null;
  }

  /** null when the user is a member already. */
  async insert(orgId: number, userId: number, role: OrgRole, now: Date): Promise<OrgMemberRow | null> {
    const row = await this.db
      .insertInto('orgs_members')
      .values({ org_id: orgId, user_id: userId, role, created_at: now } as never)
      .onConflict((oc) => oc.columns(['org_id', 'user_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async setRole(memberId: number, role: OrgRole): Promise<void> {
    await this.db.updateTable('orgs_members').set({ role }).where('id', '=', memberId).execute();
  }

  async delete(memberId: number): Promise<void> {
    await this.db.deleteFrom('orgs_members').where('id', '=', memberId).execute();
  }

  /** Removes a user's membership; false when they were not a member. */
  async deleteUser(orgId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .deleteFrom('orgs_members')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
