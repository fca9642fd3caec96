import { sql, type Kysely, type Transaction } from 'kysely';
import type { GameproxyTables, Route, RouteRow } from '../gameproxy-tables.ts';

type Db = Kysely<GameproxyTables> | Transaction<GameproxyTables>;

/** Whose routes: an account's own (org_id null), or an organization's. */
export type RouteOwner = { readonly userId: number; readonly orgId: null } | { readonly orgId: number };

type ReadRow = Omit<RouteRow, 'id'> & { id: number | string };
const idOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));
const read = (r: ReadRow): Route => ({
  ...r,
  id: Number(r.id),
  user_id: Number(r.user_id),
  org_id: idOrNull(r.org_id),
  upstream_service_id: idOrNull(r.upstream_service_id),
  location_id: idOrNull(r.location_id),
});

export type RouteChanges = Partial<
  Pick<
    RouteRow,
    | 'display_name'
    | 'description'
    | 'online_motd'
    | 'offline_motd'
    | 'favicon'
    | 'version_name'
    | 'status_cache_ttl_seconds'
    | 'updated_at'
  >
>;

/** Game proxy routes: one row per `<subdomain>.<base_domain>` (unique). */
export class GameRoutesRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<GameproxyTables>): GameRoutesRepository {
    return new GameRoutesRepository(trx);
  }

  /** Serialises route creation for one owner until the transaction ends (the route limit holds). */
  async lockRoutesOf(owner: RouteOwner): Promise<void> {
    const key = owner.orgId === null ? `gameproxy:user:${owner.userId}` : `gameproxy:org:${owner.orgId}`;
    await sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`.execute(this.db);
  }

  /** Inserts the route; null when its address is taken (the unique key). */
  async insert(row: Omit<RouteRow, 'id'>): Promise<Route | null> {
    const inserted = await this.db
      .insertInto('gameproxy_routes')
      .values(row)
      .onConflict((oc) => oc.columns(['subdomain', 'base_domain']).doNothing())
      .returningAll()
      .executeTakeFirst();
    return inserted === undefined ? null : read(inserted);
  }

  async find(id: number): Promise<Route | null> {
    const row = await this.db
      .selectFrom('gameproxy_routes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? null : read(row);
  }

  async exists(subdomain: string, baseDomain: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('gameproxy_routes')
      .select('id')
      .where('subdomain', '=', subdomain)
      .where('base_domain', '=', baseDomain)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Which of these subdomains are taken under the base domain. */
  async taken(subdomains: readonly string[], baseDomain: string): Promise<Set<string>> {
    if (subdomains.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('gameproxy_routes')
      .select('subdomain')
      .where('base_domain', '=', baseDomain)
      .where('subdomain', 'in', subdomains)
      .execute();
    return new Set(rows.map((r) => r.subdomain));
  }

  /** The owner's routes, oldest first. */
  async listOf(owner: RouteOwner): Promise<Route[]> {
    let query = this.db.selectFrom('gameproxy_routes').selectAll();
    query =
      owner.orgId === null
        ? query.where('user_id', '=', owner.userId).where('org_id', 'is', null)
        : query.where('org_id', '=', owner.orgId);
    return (await query.orderBy('id').execute()).map(read);
  }

  async countOf(owner: RouteOwner): Promise<number> {
    let query = this.db.selectFrom('gameproxy_routes').select((eb) => eb.fn.countAll<string>().as('n'));
    query =
      owner.orgId === null
        ? query.where('user_id', '=', owner.userId).where('org_id', 'is', null)
        : query.where('org_id', '=', owner.orgId);
    return Number((await query.executeTakeFirstOrThrow()).n);
  }

  async update(id: number, changes: RouteChanges): Promise<Route | null> {
    const row = await this.db
      .updateTable('gameproxy_routes')
      .set(changes)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? null : read(row);
  }

  /** Deletes the route (its custom domain goes with it: ON DELETE CASCADE). */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('gameproxy_routes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
