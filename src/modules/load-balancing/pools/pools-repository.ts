import { sql, type Kysely, type Transaction } from 'kysely';
import type { LoadBalancingTables, PoolRow } from '../load-balancing-tables.ts';

type Db = Kysely<LoadBalancingTables> | Transaction<LoadBalancingTables>;

export type PoolValues = Omit<PoolRow, 'id' | 'zone_id' | 'created_at' | 'updated_at'>;

/** Origin pools of a zone; writes run inside the zone's change (withTx). */
export class PoolsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<LoadBalancingTables>): PoolsRepository {
    return new PoolsRepository(trx);
  }

  async list(zoneId: number): Promise<PoolRow[]> {
    return this.db
      .selectFrom('load_balancing_pools')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .orderBy('id')
      .execute();
  }

  async find(zoneId: number, poolId: number): Promise<PoolRow | null> {
    const row = await this.db
      .selectFrom('load_balancing_pools')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .where('id', '=', poolId)
      .executeTakeFirst();
    return row ?? null;
  }

  async count(zoneId: number): Promise<number> {
    const row = await this.db
      .selectFrom('load_balancing_pools')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('zone_id', '=', zoneId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async nameTaken(zoneId: number, name: string, exceptId: number | null): Promise<boolean> {
    let q = this.db
      .selectFrom('load_balancing_pools')
      .select('id')
      .where('zone_id', '=', zoneId)
      .where('name', '=', name);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(zoneId: number, values: PoolValues): Promise<PoolRow> {
    return this.db
      .insertInto('load_balancing_pools')
      .values({ ...values, zone_id: zoneId } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(poolId: number, values: Partial<PoolValues>): Promise<PoolRow> {
    return this.db
      .updateTable('load_balancing_pools')
      .set({ ...values, updated_at: sql<Date>`now()` } as never)
      .where('id', '=', poolId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(poolId: number): Promise<void> {
    await this.db.deleteFrom('load_balancing_pools').where('id', '=', poolId).execute();
  }
}
