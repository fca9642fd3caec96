import type { Kysely, Selectable, Transaction } from 'kysely';
import type {
  ObjectStorageTables,
  StorageService,
  StorageServiceRow,
  StorageStatus,
} from '../object-storage-tables.ts';

type Db = Kysely<ObjectStorageTables> | Transaction<ObjectStorageTables>;

/** bigint and numeric columns arrive as strings from PostgreSQL: numbers here. */
export function storageServiceOf(r: Selectable<StorageServiceRow>): StorageService {
  return {
    ...r,
    service_id: Number(r.service_id),
    user_id: Number(r.user_id),
    org_id: r.org_id === null ? null : Number(r.org_id),
    quota_bytes: r.quota_bytes === null ? null : Number(r.quota_bytes),
    max_buckets: Number(r.max_buckets),
    presign_max_seconds: Number(r.presign_max_seconds),
    grace_days: Number(r.grace_days),
    overage_per_gb_month: r.overage_per_gb_month === null ? null : String(r.overage_per_gb_month),
    created_at: new Date(r.created_at),
  };
}

/** Storage services: one per object_storage service, with its tenant and its plan's limits. */
export class StorageRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<ObjectStorageTables>): StorageRepository {
    return new StorageRepository(trx);
  }

  async find(serviceId: number): Promise<StorageService | null> {
    const row = await this.db
      .selectFrom('object_storage_services')
      .selectAll()
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    return row === undefined ? null : storageServiceOf(row);
  }

  async findMany(serviceIds: readonly number[]): Promise<StorageService[]> {
    if (serviceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('object_storage_services')
      .selectAll()
      .where('service_id', 'in', serviceIds as number[])
      .execute();
    return rows.map((r) => storageServiceOf(r));
  }

  /** Services the meter reads: active or suspended (their data is still there). */
  async metered(): Promise<StorageService[]> {
    const rows = await this.db
      .selectFrom('object_storage_services')
      .selectAll()
      .where('status', 'in', ['active', 'suspended'])
      .orderBy('service_id')
      .execute();
    return rows.map((r) => storageServiceOf(r));
  }

  /** Terminated services whose grace has ended by `at`. */
  async duePurge(at: Date): Promise<StorageService[]> {
    const rows = await this.db
      .selectFrom('object_storage_services')
      .selectAll()
      .where('status', '=', 'terminated')
      .where('purge_after', '<=', at)
      .execute();
    return rows.map((r) => storageServiceOf(r));
  }

  /** Made at order; a repeated provisioning keeps the row (and its tenant) as it is. */
  async insert(row: Omit<StorageServiceRow, 'created_at' | 'purge_after'>): Promise<void> {
    await this.db
      .insertInto('object_storage_services')
      .values({ ...row, purge_after: null } as never)
      .onConflict((oc) => oc.column('service_id').doUpdateSet({ status: row.status }))
      .execute();
  }

  async setStatus(serviceId: number, status: StorageStatus, purgeAfter: Date | null = null): Promise<void> {
    await this.db
      .updateTable('object_storage_services')
      .set({ status, purge_after: purgeAfter })
      .where('service_id', '=', serviceId)
      .execute();
  }
}
