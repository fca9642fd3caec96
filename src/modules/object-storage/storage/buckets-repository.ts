import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Bucket, BucketRow, ObjectStorageTables } from '../object-storage-tables.ts';

type Db = Kysely<ObjectStorageTables> | Transaction<ObjectStorageTables>;

export const bucketOf = (r: Selectable<BucketRow>): Bucket => ({
  ...r,
  id: Number(r.id),
  service_id: Number(r.service_id),
  created_at: new Date(r.created_at),
});

/** Buckets of storage services; a deleted bucket keeps its row, deleted_at set. */
export class BucketsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<ObjectStorageTables>): BucketsRepository {
    return new BucketsRepository(trx);
  }

  async insert(serviceId: number, name: string, regionCode: string): Promise<Bucket> {
    const row = await this.db
      .insertInto('object_storage_buckets')
      .values({ service_id: serviceId, name, region_code: regionCode, deleted_at: null })
      .returningAll()
      .executeTakeFirstOrThrow();
    return bucketOf(row);
  }

  /** The service's buckets in use, oldest first. */
  async live(serviceId: number): Promise<Bucket[]> {
    const rows = await this.db
      .selectFrom('object_storage_buckets')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((r) => bucketOf(r));
  }

  async find(serviceId: number, id: number): Promise<Bucket | null> {
    const row = await this.db
      .selectFrom('object_storage_buckets')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row === undefined ? null : bucketOf(row);
  }

  async findByName(serviceId: number, name: string): Promise<Bucket | null> {
    const row = await this.db
      .selectFrom('object_storage_buckets')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row === undefined ? null : bucketOf(row);
  }

  async countLive(serviceIds: readonly number[]): Promise<Map<number, number>> {
    if (serviceIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('object_storage_buckets')
      .select(['service_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('service_id', 'in', serviceIds as number[])
      .where('deleted_at', 'is', null)
      .groupBy('service_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.service_id), Number(r.n)]));
  }

  async markDeleted(id: number, at: Date): Promise<void> {
    await this.db
      .updateTable('object_storage_buckets')
      .set({ deleted_at: at })
      .where('id', '=', id)
      .execute();
  }

  async markAllDeleted(serviceId: number, at: Date): Promise<void> {
    await this.db
      .updateTable('object_storage_buckets')
      .set({ deleted_at: at })
      .where('service_id', '=', serviceId)
      .where('deleted_at', 'is', null)
      .execute();
  }
}
