import type { Kysely, Transaction } from 'kysely';
import type { CustomDomainRow, GameproxyTables, Route } from '../gameproxy-tables.ts';
import type { CheckOutcome } from './custom-domain-schedule.ts';

type Db = Kysely<GameproxyTables> | Transaction<GameproxyTables>;

/** A custom domain with what its checks need of its route. */
export interface DomainWithRoute {
  readonly domain: CustomDomainRow;
  readonly route: Pick<Route, 'id' | 'user_id' | 'org_id' | 'subdomain' | 'base_domain'>;
}

const num = (v: number | string): number => Number(v);
const numOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));
const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const dateOrNull = (v: Date | string | null): Date | null => (v === null ? null : date(v));

type ReadRow = Record<keyof CustomDomainRow, unknown>;
const read = (r: ReadRow): CustomDomainRow => ({
  ...(r as CustomDomainRow),
  route_id: num(r.route_id as number),
  managed_zone_id: numOrNull(r.managed_zone_id as number | null),
  checked_at: dateOrNull(r.checked_at as Date | null),
  next_check_at: date(r.next_check_at as Date),
  created_at: date(r.created_at as Date),
});

const DOMAIN_COLUMNS = [
  'd.route_id',
  'd.domain',
  'd.subdomain',
  'd.fqdn',
  'd.status',
  'd.include_in_list',
  'd.managed_zone_id',
  'd.checked_at',
  'd.next_check_at',
  'd.missed_checks',
  'd.last_error',
  'd.created_at',
] as const;

/** Custom domains: at most one per route, each fqdn on one route. */
export class CustomDomainsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<GameproxyTables>): CustomDomainsRepository {
    return new CustomDomainsRepository(trx);
  }

  async find(routeId: number): Promise<CustomDomainRow | null> {
    const row = await this.db
      .selectFrom('gameproxy_custom_domains')
      .selectAll()
      .where('route_id', '=', routeId)
      .executeTakeFirst();
    return row === undefined ? null : read(row);
  }

  /** The route holding `fqdn`, or null. */
  async routeOfFqdn(fqdn: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('gameproxy_custom_domains')
      .select('route_id')
      .where('fqdn', '=', fqdn)
      .executeTakeFirst();
    return row === undefined ? null : num(row.route_id);
  }

  /** Inserts the domain; false when the route has one or the fqdn is taken (unique keys). */
  async insert(row: CustomDomainRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('gameproxy_custom_domains')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning('route_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async setIncludeInList(routeId: number, include: boolean): Promise<CustomDomainRow | null> {
    const row = await this.db
      .updateTable('gameproxy_custom_domains')
      .set({ include_in_list: include })
      .where('route_id', '=', routeId)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? null : read(row);
  }

  /**
   * Writes a check's outcome, unless the domain went or was replaced meanwhile (another fqdn):
   * answers the row as it was before, or null.
   */
  async recordCheck(
    routeId: number,
    fqdn: string,
    outcome: CheckOutcome & { managed_zone_id?: number | null },
  ): Promise<CustomDomainRow | null> {
    const before = await this.db
      .selectFrom('gameproxy_custom_domains')
      .selectAll()
      .where('route_id', '=', routeId)
      .where('fqdn', '=', fqdn)
      .forUpdate()
      .executeTakeFirst();
    if (before === undefined) return null;
    await this.db
      .updateTable('gameproxy_custom_domains')
      .set(outcome)
      .where('route_id', '=', routeId)
      .execute();
    return read(before);
  }

  /** Deletes the route's domain; answers it, or null when there was none. */
  async delete(routeId: number): Promise<CustomDomainRow | null> {
    const row = await this.db
      .deleteFrom('gameproxy_custom_domains')
      .where('route_id', '=', routeId)
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? null : read(row);
  }

  /** The domains of these routes, each with its route. */
  async withRoutes(routeIds: readonly number[]): Promise<DomainWithRoute[]> {
    if (routeIds.length === 0) return [];
    return this.joined()
      .where('d.route_id', 'in', [...routeIds])
      .execute()
      .then((rows) => rows.map(split));
  }

  /** Domains whose check is due at `now`, soonest first. */
  async due(now: Date, limit: number): Promise<DomainWithRoute[]> {
    const rows = await this.joined()
      .where('d.next_check_at', '<=', now)
      .orderBy('d.next_check_at')
      .limit(limit)
      .execute();
    return rows.map(split);
  }

  /**
   * Takes a due check for this process: moves next_check_at to `until` if it still is `seen`
   * (another process that took it first moved it). Answers whether this process has it.
   */
  async claimCheck(routeId: number, seen: Date, until: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('gameproxy_custom_domains')
      .set({ next_check_at: until })
      .where('route_id', '=', routeId)
      .where('next_check_at', '=', seen)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private joined() {
    return this.db
      .selectFrom('gameproxy_custom_domains as d')
      .innerJoin('gameproxy_routes as r', 'r.id', 'd.route_id')
      .select([
        ...DOMAIN_COLUMNS,
        'r.user_id as r_user_id',
        'r.org_id as r_org_id',
        'r.subdomain as r_subdomain',
        'r.base_domain as r_base_domain',
      ]);
  }
}

function split(
  r: ReadRow & { r_user_id: number; r_org_id: number | null; r_subdomain: string; r_base_domain: string },
): DomainWithRoute {
  const domain = read(r);
  return {
    domain,
    route: {
      id: domain.route_id,
      user_id: num(r.r_user_id),
      org_id: numOrNull(r.r_org_id),
      subdomain: r.r_subdomain,
      base_domain: r.r_base_domain,
    },
  };
}
