import { sql, type Kysely, type Transaction } from 'kysely';
import type { CustomerRow, IdentityTables, UserRow } from '../identity-tables.ts';

type Db = Kysely<IdentityTables> | Transaction<IdentityTables>;

/** Main-site users and storefront customers. E-mail addresses compare case-insensitively. */
export class AccountsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<IdentityTables>): AccountsRepository {
    return new AccountsRepository(trx);
  }

  /** null when the email is taken. */
  async insertUser(email: string, passwordHash: string): Promise<UserRow | null> {
    const row = await this.db
      .insertInto('identity_users')
      .values({ email, password_hash: passwordHash } as never)
      .onConflict((oc) => oc.expression(sql`lower(email)`).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async findUserByEmail(email: string): Promise<UserRow | null> {
    const row = await this.db
      .selectFrom('identity_users')
      .selectAll()
      .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`)
      .executeTakeFirst();
    return row ?? null;
  }

  async findUser(id: number): Promise<UserRow | null> {
    return (
      (await this.db.selectFrom('identity_users').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    );
  }

  async usersByIds(ids: readonly number[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('identity_users').selectAll().where('id', 'in', ids).execute();
  }

  async setUserPassword(id: number, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('identity_users')
      .set({ password_hash: passwordHash })
      .where('id', '=', id)
      .execute();
  }

  /** null when the organization already has a customer with this email. `at`: when (the module clock). */
  async insertCustomer(
    orgId: number,
    email: string,
    passwordHash: string,
    at?: Date,
  ): Promise<CustomerRow | null> {
    const row = await this.db
      .insertInto('identity_customers')
      .values({
        org_id: orgId,
        email,
        password_hash: passwordHash,
        ...(at ? { created_at: at } : {}),
      } as never)
      .onConflict((oc) => oc.expression(sql`org_id, lower(email)`).doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async findCustomerByEmail(orgId: number, email: string): Promise<CustomerRow | null> {
    const row = await this.db
      .selectFrom('identity_customers')
      .selectAll()
      .where('org_id', '=', orgId)
      .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`)
      .executeTakeFirst();
    return row ?? null;
  }

  async findCustomer(id: number): Promise<CustomerRow | null> {
    return (
      (await this.db.selectFrom('identity_customers').selectAll().where('id', '=', id).executeTakeFirst()) ??
      null
    );
  }

  /**
   * An organization's customers, newest first (ties on id, newest id first); `q` matches the email
   * address (case-insensitive substring). `all` counts every customer of the organization.
   */
  async customersOfOrg(
    orgId: number,
    q: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: CustomerRow[]; total: number; all: number }> {
    const pattern =
      q === undefined || q === '' ? null : `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    let filtered = this.db.selectFrom('identity_customers').where('org_id', '=', orgId);
    if (pattern !== null) filtered = filtered.where(sql<boolean>`lower(email) like ${pattern} escape '\\'`);
    const rows = await filtered
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    const total = await filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const all = await this.db
      .selectFrom('identity_customers')
      .where('org_id', '=', orgId)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(total.n), all: Number(all.n) };
  }

  async findCustomerOfOrg(orgId: number, id: number): Promise<CustomerRow | null> {
    return (
      (await this.db
        .selectFrom('identity_customers')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()) ?? null
    );
  }

  async setCustomerPassword(id: number, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('identity_customers')
      .set({ password_hash: passwordHash })
      .where('id', '=', id)
      .execute();
  }
}

/** Storefront customers counted by day for the staff console's insights (one aggregate query). */
export class CustomerInsightsRepository {
  constructor(private readonly db: Db) {}

  /** Storefront customers registered with the organization in [from, before), by UTC day. */
  async registrationsByDay(
    orgId: number,
    from: Date,
    before: Date,
  ): Promise<{ day: string; count: number }[]> {
    const day = sql<string>`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
    const rows = await this.db
      .selectFrom('identity_customers')
      .select([day.as('day'), sql<string>`count(*)`.as('n')])
      .where('org_id', '=', orgId)
      .where('created_at', '>=', from)
      .where('created_at', '<', before)
      .groupBy(day)
      .execute();
    return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
  }
}
