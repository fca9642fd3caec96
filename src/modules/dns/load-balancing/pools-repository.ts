import { sql, type Kysely, type Transaction } from 'kysely';
import type { DnsTables, PoolRow } from '../dns-tables.ts';

type Db = Kysely<DnsTables> | Transaction<DnsTables>;

export type PoolValues = Omit<PoolRow, 'id' | 'zone_id' | 'created_at' | 'updated_at'>;

/** Origin pools of a zone; writes run inside the zone's change (withTx). */
export class PoolsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<DnsTables>): PoolsRepository {
    return new PoolsRepository(trx);
  }

  async list(zoneId: number): Promise<PoolRow[]> {
    return this.db
      .selectFrom('dns_lb_pools')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .orderBy('id')
      .execute();
  }

  async find(zoneId: number, poolId: number): Promise<PoolRow | null> {
    const row = await this.db
      .selectFrom('dns_lb_pools')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .where('id', '=', poolId)
      .executeTakeFirst();
    return row ?? null;
  }

  async ids(zoneId: number): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('dns_lb_pools')
      .select('id')
      .where('zone_id', '=', zoneId)
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  async count(zoneId: number): Promise<number> {
    const row = await this.db
      .selectFrom('dns_lb_pools')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('zone_id', '=', zoneId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async nameTaken(zoneId: number, name: string, exceptId: number | null): Promise<boolean> {
    let q = this.db
      .selectFrom('dns_lb_pools')
      .select('id')
      .where('zone_id', '=', zoneId)
      .where('name', '=', name);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(zoneId: number, values: PoolValues): Promise<PoolRow> {
    return this.db
      .insertInto('dns_lb_pools')
      .values({ ...values, zone_id: zoneId } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(poolId: number, values: Partial<PoolValues>): Promise<PoolRow> {
    return this.db
      .updateTable('dns_lb_pools')
      .set({ ...values, updated_at: sql<Date>`now()` } as never)
      .where('id', '=', poolId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(poolId: number): Promise<void> {
    await this.db.deleteFrom('dns_lb_pools').where('id', '=', poolId).execute();
  }
}
