import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { Bucket } from '../object-storage-tables.ts';
import type { BucketUsage } from './bucket-usage.ts';

/** Where a bucket lives as the API shows it: its region's code, location and public endpoint. */
export interface BucketPlace {
  readonly code: string;
  readonly locationId: number | null;
  readonly locationName: string | null;
  readonly endpoint: string;
}

/**
 * A bucket as the API shows it: its row (the region's code as `region`), where it lives, what it
 * holds as last read from the gateway, and its path-style URL (`<endpoint>/<tenant>:<name>`).
 */
export type BucketView = JsonView<Omit<Bucket, 'service_id' | 'region_code'>> & {
  region: string | null;
  location_id: number | null;
  location_name: string | null;
  /** Null: the service's quota covers all its buckets (no quota of a bucket's own). */
  quota_bytes: number | null;
  used_bytes: number;
  object_count: number;
  usage_measured_at: string | null;
  endpoint: string | null;
  url: string | null;
};

export function bucketView(
  bucket: Bucket,
  tenant: string,
  place: BucketPlace | null,
  usage: BucketUsage,
  measuredAt: Date | null,
): BucketView {
  return {
    id: bucket.id,
    name: bucket.name,
    region: bucket.region_code,
    location_id: place?.locationId ?? null,
    location_name: place?.locationName ?? null,
    quota_bytes: null,
    used_bytes: usage.bytes,
    object_count: usage.objects,
    usage_measured_at: measuredAt?.toISOString() ?? null,
    created_at: bucket.created_at.toISOString(),
    deleted_at: bucket.deleted_at === null ? null : new Date(bucket.deleted_at).toISOString(),
    endpoint: place?.endpoint ?? null,
    url: place === null ? null : `${place.endpoint}/${tenant}:${bucket.name}`,
  };
}
