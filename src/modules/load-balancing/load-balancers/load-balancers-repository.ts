import { sql, type Kysely, type Transaction } from 'kysely';
import type { LoadBalancingTables, LoadBalancerRow } from '../load-balancing-tables.ts';

type Db = Kysely<LoadBalancingTables> | Transaction<LoadBalancingTables>;

export type LoadBalancerValues = Omit<LoadBalancerRow, 'id' | 'zone_id' | 'created_at' | 'updated_at'>;

const JSON_COLUMNS = ['default_pools', 'region_pools', 'country_pools', 'location_pools'] as const;

/** jsonb columns are written as explicit jsonb text so PGlite and node-postgres agree. */
function toColumns(values: Partial<LoadBalancerValues>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const key of JSON_COLUMNS) {
    if (values[key] !== undefined) out[key] = sql`${JSON.stringify(values[key])}::jsonb`;
  }
  return out;
}

/** Rows as read: ids inside jsonb are numbers already; bigint ids are coerced to be safe. */
function fromRow(row: LoadBalancerRow): LoadBalancerRow {
  const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  return {
    ...row,
    id: Number(row.id),
    zone_id: Number(row.zone_id),
    fallback_pool_id: row.fallback_pool_id === null ? null : Number(row.fallback_pool_id),
    default_pools: parse(row.default_pools),
    region_pools: parse(row.region_pools),
    country_pools: parse(row.country_pools),
    location_pools: parse(row.location_pools),
  };
}

/** Load balancers of a zone (jsonb pool lists decoded); writes run inside the zone's change (withTx). */
export class LoadBalancersRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<LoadBalancingTables>): LoadBalancersRepository {
    return new LoadBalancersRepository(trx);
  }

  async list(zoneId: number): Promise<LoadBalancerRow[]> {
    const rows = await this.db
      .selectFrom('load_balancing_load_balancers')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  async find(zoneId: number, lbId: number): Promise<LoadBalancerRow | null> {
    const row = await this.db
      .selectFrom('load_balancing_load_balancers')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .where('id', '=', lbId)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async count(zoneId: number): Promise<number> {
    const row = await this.db
      .selectFrom('load_balancing_load_balancers')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('zone_id', '=', zoneId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async hostnameTaken(zoneId: number, hostname: string, exceptId: number | null): Promise<boolean> {
    let q = this.db
      .selectFrom('load_balancing_load_balancers')
      .select('id')
      .where('zone_id', '=', zoneId)
      .where('hostname', '=', hostname);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** Whether the zone has A, AAAA or CNAME records at `name`. */
  /** The zone's pool ids: what a load balancer's steering may name. */
  async poolIds(zoneId: number): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('load_balancing_pools')
      .select('id')
      .where('zone_id', '=', zoneId)
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  async hostnames(zoneId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('load_balancing_load_balancers')
      .select('hostname')
      .where('zone_id', '=', zoneId)
      .execute();
    return rows.map((r) => r.hostname);
  }

  async insert(zoneId: number, values: LoadBalancerValues): Promise<LoadBalancerRow> {
    const row = await this.db
      .insertInto('load_balancing_load_balancers')
      .values({ ...toColumns(values), zone_id: zoneId } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  async update(lbId: number, values: Partial<LoadBalancerValues>): Promise<LoadBalancerRow> {
    const row = await this.db
      .updateTable('load_balancing_load_balancers')
      .set({ ...toColumns(values), updated_at: sql<Date>`now()` } as never)
      .where('id', '=', lbId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  async delete(lbId: number): Promise<void> {
    await this.db.deleteFrom('load_balancing_load_balancers').where('id', '=', lbId).execute();
  }
}
