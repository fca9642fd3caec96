import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { ObjectEntry } from './object-entry.ts';
import type { ObjectDeletion, ObjectPage } from './objects-service.ts';

/** S3's longest key: 1024 bytes. */
const S3Key = Type.String({ minLength: 1, maxLength: 1024 });

export const ObjectListQuery = Type.Object({
  prefix: Type.Optional(Type.String({ maxLength: 1024 })),
  /** The previous page's next_token, as the gateway gave it. */
  token: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
  max_keys: Type.Integer({ minimum: 1, maximum: 1000, default: 200 }),
  flat: Type.Boolean({ default: false }),
});

export const DeleteObjectsBody = Type.Object(
  { keys: Type.Array(S3Key, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);

export const ObjectEntryResponse = describes<ObjectEntry>()(
  Type.Object({
    key: Type.String(),
    size: Nullable(Type.Integer()),
    last_modified: Nullable(Type.String()),
    etag: Nullable(Type.String()),
    is_prefix: Type.Boolean(),
  }),
);

export const ObjectPageResponse = describes<ObjectPage>()(
  Type.Object({
    items: Type.Array(ObjectEntryResponse),
    prefix: Type.String(),
    next_token: Nullable(Type.String()),
  }),
);

export const ObjectDeletionResponse = describes<ObjectDeletion>()(
  Type.Object({
    deleted: Type.Integer(),
    errors: Type.Array(Type.Object({ key: Type.String(), code: Type.String(), message: Type.String() })),
  }),
);
