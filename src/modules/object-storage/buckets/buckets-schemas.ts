import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { BucketView } from './bucket-view.ts';
import type { BucketDeleted, BucketList } from './buckets-service.ts';

/** The path of a service's routes: /client/object-storage/{service_id}/... */
export const StorageParams = Type.Object({ service_id: Type.Integer({ minimum: 1 }) });

export const BucketParams = Type.Object({
  ...StorageParams.properties,
  bucket_id: Type.Integer({ minimum: 1 }),
});

/** The name's rules are S3's (bucket-names.ts), checked by the service to name the one broken. */
export const CreateBucketBody = Type.Object(
  {
    name: Type.String({ maxLength: 255 }),
    location_id: Type.Optional(Nullable(Type.Integer())),
  },
  { additionalProperties: false },
);

export const DeleteBucketQuery = Type.Object({ force: Type.Boolean({ default: false }) });

export const BucketResponse = describes<BucketView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    region: Nullable(Type.String()),
    location_id: Nullable(Type.Integer()),
    location_name: Nullable(Type.String()),
    quota_bytes: Nullable(Type.Integer()),
    used_bytes: Type.Integer(),
    object_count: Type.Integer(),
    usage_measured_at: Nullable(IsoTime),
    created_at: IsoTime,
    deleted_at: Nullable(IsoTime),
    endpoint: Nullable(Type.String()),
    url: Nullable(Type.String()),
  }),
);

export const BucketListResponse = describes<BucketList>()(
  Type.Object({
    items: Type.Array(BucketResponse),
    total: Type.Integer(),
    bucket_prefix: Type.String(),
    max_buckets: Type.Integer(),
  }),
);

export const BucketDeletedResponse = describes<BucketDeleted>()(
  Type.Object({
    ok: Type.Boolean(),
    bucket: Type.String(),
    region: Type.String(),
    objects_destroyed: Type.Integer(),
  }),
);
