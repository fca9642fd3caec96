import { sql, type Kysely, type Transaction } from 'kysely';
import type { Boost, GameproxyTables } from '../gameproxy-tables.ts';

type Db = Kysely<GameproxyTables> | Transaction<GameproxyTables>;

/** The route a server address names, and the service behind it (null: a host and port upstream). */
export interface AddressedRoute {
  readonly routeId: number;
  readonly upstreamServiceId: number | null;
}

function boostOf(row: Boost): Boost {
  return {
    ...row,
    id: Number(row.id),
    org_id: Number(row.org_id),
    route_id: Number(row.route_id),
    service_id: Number(row.service_id),
    created_at: new Date(row.created_at),
    expires_at: new Date(row.expires_at),
  };
}

/** Partner boosts, and the routes their server addresses name. */
export class BoostsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<GameproxyTables>): BoostsRepository {
    return new BoostsRepository(trx);
  }

  /**
   * The route whose address is `address` (already lower-case, no trailing dot): its own
   * `<subdomain>.<base_domain>`, or the fqdn of its verified custom domain.
   */
  async routeByAddress(address: string): Promise<AddressedRoute | null> {
    const dot = address.indexOf('.');
    const own =
      dot <= 0
        ? undefined
        : await this.db
            .selectFrom('gameproxy_routes')
            .select(['id', 'upstream_service_id'])
            .where('subdomain', '=', address.slice(0, dot))
            .where('base_domain', '=', address.slice(dot + 1))
            .executeTakeFirst();
    const row =
      own ??
      (await this.db
        .selectFrom('gameproxy_custom_domains as d')
        .innerJoin('gameproxy_routes as r', 'r.id', 'd.route_id')
        .select(['r.id', 'r.upstream_service_id'])
        .where('d.fqdn', '=', address)
        .where('d.status', '=', 'verified')
        .executeTakeFirst());
    if (row === undefined) return null;
    const service = row.upstream_service_id;
    return { routeId: Number(row.id), upstreamServiceId: service === null ? null : Number(service) };
  }

  async byClaim(orgId: number, partner: string, claimId: string): Promise<Boost | null> {
    const row = await this.db
      .selectFrom('gameproxy_boosts')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('partner', '=', partner)
      .where('claim_id', '=', claimId)
      .executeTakeFirst();
    return row === undefined ? null : boostOf(row);
  }

  /** The service's boost running at `now` (any partner's), if one is. */
  async activeFor(serviceId: number, now: Date): Promise<Boost | null> {
    const row = await this.db
      .selectFrom('gameproxy_boosts')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('expires_at', '>', now)
      .orderBy('expires_at', 'desc')
      .executeTakeFirst();
    return row === undefined ? null : boostOf(row);
  }

  /**
   * Holds `name` until the transaction ends (a claim's id, a service): of two claims at once, the
   * second sees the first's row — a time window cannot be a unique constraint.
   */
  async lock(name: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`gameproxy.boost:${name}`}, 0))`.execute(
      this.db,
    );
  }

  async insert(row: Omit<Boost, 'id'>): Promise<Boost> {
    return boostOf(
      await this.db.insertInto('gameproxy_boosts').values(row).returningAll().executeTakeFirstOrThrow(),
    );
  }
}
