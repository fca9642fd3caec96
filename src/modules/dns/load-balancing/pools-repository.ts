import { sql, type Kysely, type Transaction } from 'kysely';
import type { DnsTables, PoolRow } from '../dns-tables.ts';

type Db = Kysely<DnsTables> | Transaction<DnsTables>;

export type PoolValues = Omit<PoolRow, 'id' | 'zone_id' | 'created_at' | 'updated_at'>;

export class PoolsRepository {
  constructor(private readonly db: Kysely<DnsTables>) {}

  async list(zoneId: number, db: Db = this.db): Promise<PoolRow[]> {
    return db.selectFrom('dns_lb_pools').selectAll().where('zone_id', '=', zoneId).orderBy('id').execute();
  }

  async find(zoneId: number, poolId: number, db: Db = this.db): Promise<PoolRow | null> {
    const row = await db
      .selectFrom('dns_lb_pools')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .where('id', '=', poolId)
      .executeTakeFirst();
    return row ?? null;
  }

  async ids(db: Db, zoneId: number): Promise<Set<number>> {
    const rows = await db.selectFrom('dns_lb_pools').select('id').where('zone_id', '=', zoneId).execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  async count(db: Db, zoneId: number): Promise<number> {
    const row = await db
      .selectFrom('dns_lb_pools')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('zone_id', '=', zoneId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async nameTaken(db: Db, zoneId: number, name: string, exceptId: number | null): Promise<boolean> {
    let q = db.selectFrom('dns_lb_pools').select('id').where('zone_id', '=', zoneId).where('name', '=', name);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(db: Db, zoneId: number, values: PoolValues): Promise<PoolRow> {
    return db
      .insertInto('dns_lb_pools')
      .values({ ...values, zone_id: zoneId } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(db: Db, poolId: number, values: Partial<PoolValues>): Promise<PoolRow> {
    return db
      .updateTable('dns_lb_pools')
      .set({ ...values, updated_at: sql<Date>`now()` } as never)
      .where('id', '=', poolId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(db: Db, poolId: number): Promise<void> {
    await db.deleteFrom('dns_lb_pools').where('id', '=', poolId).execute();
  }
}
