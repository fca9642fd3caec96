import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { RegionView, StorageServiceItemView, StorageServiceView } from './storage-view.ts';

/** The path of every route of one service: /client/object-storage/{service_id}/... */
export const StorageParams = Type.Object({ service_id: Type.Integer({ minimum: 1 }) });

export const StorageRegionResponse = describes<RegionView>()(
  Type.Object({
    id: Type.Integer(),
    code: Type.String(),
    name: Type.String(),
    country_code: Nullable(Type.String()),
    endpoint: Type.String(),
  }),
);

export const RegionsResponse = Type.Object({ regions: Type.Array(StorageRegionResponse) });

const itemProperties = {
  id: Type.Integer(),
  service_id: Type.Integer(),
  label: Type.String(),
  hostname: Nullable(Type.String()),
  status: Type.String(),
  product_name: Nullable(Type.String()),
  billing_cycle: Nullable(Type.String()),
  region: Nullable(Type.String()),
  location_id: Nullable(Type.Integer()),
  namespace: Type.String(),
  bucket_prefix: Type.String(),
  quota_bytes: Nullable(Type.Integer()),
  used_bytes: Type.Integer(),
  object_count: Type.Integer(),
  bucket_count: Type.Integer(),
  key_count: Type.Integer(),
  overage_per_gb_month: Nullable(Type.Number()),
  created_at: Nullable(IsoTime),
  next_due_date: Nullable(IsoTime),
};

export const StorageServiceItemResponse = describes<StorageServiceItemView>()(Type.Object(itemProperties));

export const StorageServicesResponse = Type.Object({
  items: Type.Array(StorageServiceItemResponse),
  total: Type.Integer(),
});

export const StorageServiceResponse = describes<StorageServiceView>()(
  Type.Object({
    ...itemProperties,
    endpoints: Type.Array(Type.Object({ region: Type.String(), endpoint: Type.String() })),
    overage_gb: Type.Number(),
    grace_days: Type.Integer(),
    max_buckets: Type.Integer(),
    presign_max_seconds: Type.Integer(),
  }),
);
