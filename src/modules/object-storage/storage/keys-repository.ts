import type { Kysely, Selectable, Transaction } from 'kysely';
import type { KeyRow, ObjectStorageTables, StorageKey } from '../object-storage-tables.ts';

type Db = Kysely<ObjectStorageTables> | Transaction<ObjectStorageTables>;

export type NewKey = Omit<KeyRow, 'id' | 'created_at' | 'revoked_at'>;

const keyOf = (r: Selectable<KeyRow>): StorageKey => ({
  ...r,
  id: Number(r.id),
  service_id: Number(r.service_id),
  bucket_id: r.bucket_id === null ? null : Number(r.bucket_id),
  created_at: new Date(r.created_at),
});

/** The S3 keys of storage services (secrets sealed); a revoked key keeps its row, revoked_at set. */
export class KeysRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<ObjectStorageTables>): KeysRepository {
    return new KeysRepository(trx);
  }

  async insert(key: NewKey): Promise<StorageKey> {
    const row = await this.db
      .insertInto('object_storage_keys')
      .values(key)
      .returningAll()
      .executeTakeFirstOrThrow();
    return keyOf(row);
  }

  /** The next key id, so that a bucket key's gateway user (`k<id>`) is named before the row is written. */
  async nextId(): Promise<number> {
    const row = await this.db
      .selectNoFrom((eb) => eb.fn<string>('nextval', [eb.val('object_storage_keys_id_seq')]).as('id'))
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async insertWithId(id: number, key: NewKey): Promise<StorageKey> {
    const row = await this.db
      .insertInto('object_storage_keys')
      .values({ ...key, id } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
    return keyOf(row);
  }

  /** The service's keys in use, oldest first. */
  async active(serviceId: number): Promise<StorageKey[]> {
    const rows = await this.db
      .selectFrom('object_storage_keys')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((r) => keyOf(r));
  }

  async find(serviceId: number, id: number): Promise<StorageKey | null> {
    const row = await this.db
      .selectFrom('object_storage_keys')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row === undefined ? null : keyOf(row);
  }

  /** The key made at order (full access): our own S3 calls and presigned URLs use it. */
  async defaultKey(serviceId: number): Promise<StorageKey | null> {
    const row = await this.db
      .selectFrom('object_storage_keys')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('is_default', '=', true)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row === undefined ? null : keyOf(row);
  }

  async countActive(serviceIds: readonly number[]): Promise<Map<number, number>> {
    if (serviceIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('object_storage_keys')
      .select(['service_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('service_id', 'in', serviceIds as number[])
      .where('revoked_at', 'is', null)
      .groupBy('service_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.service_id), Number(r.n)]));
  }

  async revoke(id: number, at: Date): Promise<void> {
    await this.db.updateTable('object_storage_keys').set({ revoked_at: at }).where('id', '=', id).execute();
  }

  /** Names of buckets by id, deleted ones too (a key keeps naming the bucket it was scoped to). */
  async bucketNames(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('object_storage_buckets')
      .select(['id', 'name'])
      .where('id', 'in', ids as number[])
      .execute();
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }
}
