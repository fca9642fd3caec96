/**
 * Regions and storage services as the API answers them (the contract's "Object storage": region,
 * service item, single service): the registry's summary, the module's row, the gateway's totals.
 */
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { ServiceSummary } from '../../services/index.ts';
import type { StorageService } from '../object-storage-tables.ts';
import type { StoredTotals } from './storage-stats.ts';

export interface RegionView {
  id: number;
  code: string;
  name: string;
  country_code: string | null;
  endpoint: string;
}

export type StorageServiceItemView = JsonView<{
  id: number;
  service_id: number;
  label: string;
  hostname: string | null;
  status: string;
  product_name: string | null;
  billing_cycle: string | null;
  region: string | null;
  location_id: number | null;
  namespace: string;
  bucket_prefix: string;
  quota_bytes: number | null;
  used_bytes: number;
  object_count: number;
  bucket_count: number;
  key_count: number;
  overage_per_gb_month: number | null;
  created_at: string | null;
  next_due_date: string | null;
}>;

export type StorageServiceView = StorageServiceItemView & {
  endpoints: { region: string; endpoint: string }[];
  overage_gb: number;
  grace_days: number;
  max_buckets: number;
  presign_max_seconds: number;
};

const GiB = 1024 ** 3;

/** `svc<id>:`: what an S3 client puts before a bucket name, path-style, to name the tenant's bucket. */
export const bucketPrefixOf = (tenant: string): string => `${tenant}:`;

export function storageServiceItemView(
  summary: ServiceSummary,
  storage: StorageService,
  totals: StoredTotals,
  counts: { buckets: number; keys: number },
  locationId: number | null,
): StorageServiceItemView {
  return {
    id: storage.service_id,
    service_id: storage.service_id,
    label: summary.label,
    hostname: null,
    status: summary.status,
    product_name: summary.productName,
    billing_cycle: summary.billingCycle,
    region: storage.region_code,
    location_id: locationId,
    namespace: storage.tenant,
    bucket_prefix: bucketPrefixOf(storage.tenant),
    quota_bytes: storage.quota_bytes,
    used_bytes: totals.usedBytes,
    object_count: totals.objectCount,
    bucket_count: counts.buckets,
    key_count: counts.keys,
    overage_per_gb_month: storage.overage_per_gb_month === null ? null : Number(storage.overage_per_gb_month),
    created_at: summary.createdAt.toISOString(),
    next_due_date: summary.nextDueDate === null ? null : summary.nextDueDate.toISOString(),
  };
}

/** GiB stored beyond the quota (three decimals), 0 within it or without one. */
export function overageGb(usedBytes: number, quotaBytes: number | null): number {
  if (quotaBytes === null || usedBytes <= quotaBytes) return 0;
  return Math.round(((usedBytes - quotaBytes) / GiB) * 1000) / 1000;
}
