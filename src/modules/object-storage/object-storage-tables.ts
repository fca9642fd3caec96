/** The object storage module's tables as Kysely sees them (migrations/202611290600_object_storage.sql). */
import type { Generated } from 'kysely';

export type StorageStatus = 'active' | 'suspended' | 'terminated' | 'purged';
export type KeyAccess = 'read' | 'readwrite';

export interface StorageServiceRow {
  service_id: number;
  user_id: number;
  org_id: number | null;
  /** The gateway tenant, `svc<id>`. */
  tenant: string;
  /** The home region's location code. */
  region_code: string;
  quota_bytes: number | null;
  max_buckets: number;
  presign_max_seconds: number;
  grace_days: number;
  /** A decimal string (numeric), or null. */
  overage_per_gb_month: string | null;
  status: StorageStatus;
  /** A terminated service's buckets are purged from then on. */
  purge_after: Date | null;
  created_at: Generated<Date>;
}

export interface BucketRow {
  id: Generated<number>;
  service_id: number;
  name: string;
  region_code: string;
  created_at: Generated<Date>;
  deleted_at: Date | null;
}

export interface KeyRow {
  id: Generated<number>;
  service_id: number;
  label: string;
  /** The gateway user within the tenant holding the key: `owner`, or `k<id>` for a bucket key. */
  rgw_user: string;
  /** For a read-only key of the whole service: the owner's subuser holding it. */
  subuser: string | null;
  access_key: string;
  secret_sealed: Uint8Array;
  bucket_id: number | null;
  access: KeyAccess;
  is_default: boolean;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}

export interface UsageRow {
  service_id: number;
  hour: Date;
  bytes: number;
  objects: number;
  bytes_in: number;
  bytes_out: number;
  requests: number;
}

/** How far the meter has read a service's gateway usage log (see the usage meter). */
export interface UsageMarkRow {
  service_id: number;
  /** The gateway-clock hour the last reading ended in. */
  log_hour: Date;
  /** What that reading counted of `log_hour`. */
  bytes_in: number;
  bytes_out: number;
  requests: number;
}

export interface ObjectStorageTables {
  object_storage_services: StorageServiceRow;
  object_storage_buckets: BucketRow;
  object_storage_keys: KeyRow;
  object_storage_usage: UsageRow;
  object_storage_usage_marks: UsageMarkRow;
}

export type StorageService = Omit<StorageServiceRow, 'created_at'> & { created_at: Date };
export type Bucket = Omit<BucketRow, 'id' | 'created_at'> & { id: number; created_at: Date };
export type StorageKey = Omit<KeyRow, 'id' | 'created_at'> & { id: number; created_at: Date };
