import { sql, type Kysely, type Transaction } from 'kysely';
import type { OrgRole } from '../../../kernel/auth/principal.ts';
import type { OrgRow, OrgsTables, OrgStatus } from '../orgs-tables.ts';

type Db = Kysely<OrgsTables> | Transaction<OrgsTables>;

/** An organization with the caller's role in it. */
export type OrgWithRole = OrgRow & { my_role: OrgRole | null };

const FEE = sql<string>`platform_fee_percent::text`.as('platform_fee_percent');

/** Organizations: by slug or id, a user's list, creation, settings, status. */
export class OrganizationsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<OrgsTables>): OrganizationsRepository {
    return new OrganizationsRepository(trx);
  }

  async bySlug(slug: string): Promise<OrgRow | null> {
    const row = await this.db
      .selectFrom('orgs')
      .selectAll()
      .select(FEE)
      .where('slug', '=', slug.toLowerCase())
      .executeTakeFirst();
    return row ?? null;
  }

  async byId(id: number): Promise<OrgRow | null> {
    const row = await this.db
      .selectFrom('orgs')
      .selectAll()
      .select(FEE)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  /** null when the slug is taken (by any organization, deleted ones included). */
  async insert(slug: string, name: string, ownerUserId: number, now: Date): Promise<OrgRow | null> {
    const row = await this.db
      .insertInto('orgs')
      .values({ slug, name, owner_user_id: ownerUserId, created_at: now, updated_at: now } as never)
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row === undefined ? null : this.byId(Number(row.id));
  }

  /**
   * What an organization route checks of its caller, in one round trip: the organization named
   * by `slug` (its id and status) and `userId`'s role in it (null: not a member).
   */
  async membershipBySlug(
    slug: string,
    userId: number,
  ): Promise<{ id: OrgRow['id']; status: OrgStatus; role: OrgRole | null } | null> {
    const row = await this.db
      .selectFrom('orgs')
      .leftJoin('orgs_members', (join) =>
        join.onRef('orgs_members.org_id', '=', 'orgs.id').on('orgs_members.user_id', '=', userId),
      )
      .select(['orgs.id', 'orgs.status', 'orgs_members.role'])
      .where('orgs.slug', '=', slug.toLowerCase())
      .executeTakeFirst();
    return row ?? null;
  }

  /** The user's organizations (deleted ones left out), with the user's role, by name. */
  async listOfUser(userId: number): Promise<OrgWithRole[]> {
    return this.db
      .selectFrom('orgs')
      .innerJoin('orgs_members', 'orgs_members.org_id', 'orgs.id')
      .selectAll('orgs')
      .select([
        sql<string>`orgs.platform_fee_percent::text`.as('platform_fee_percent'),
        'orgs_members.role as my_role',
      ])
      .where('orgs_members.user_id', '=', userId)
      .where('orgs.status', '<>', 'deleted')
      .orderBy('orgs.name')
      .orderBy('orgs.id')
      .execute();
  }

  async update(
    id: number,
    set: Partial<Pick<OrgRow, 'name' | 'billing_mode' | 'tier' | 'owner_user_id' | 'commerce_enabled'>>,
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('orgs')
      .set({ ...set, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async setStatus(id: number, status: OrgStatus, now: Date): Promise<void> {
    await this.db
      .updateTable('orgs')
      .set({ status, updated_at: now, deleted_at: status === 'deleted' ? now : null })
      .where('id', '=', id)
      .execute();
  }
}
