import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { KeyView } from './key-view.ts';

export const StorageParams = Type.Object({ service_id: Type.Integer({ minimum: 1 }) });

export const StorageKeyParams = Type.Object({
  ...StorageParams.properties,
  key_id: Type.Integer({ minimum: 1 }),
});

export const CreateKeyBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    bucket: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
    access: Type.Optional(
      Type.Union([Type.Literal('read'), Type.Literal('readwrite')], { default: 'readwrite' }),
    ),
  },
  { additionalProperties: false },
);

export const KeyResponse = describes<KeyView>()(
  Type.Object({
    id: Type.Integer(),
    label: Type.String(),
    access_key: Type.String(),
    bucket: Nullable(Type.String()),
    access: Type.Union([Type.Literal('read'), Type.Literal('readwrite')]),
    created_at: IsoTime,
  }),
);

export const KeyListResponse = Type.Object({ items: Type.Array(KeyResponse), total: Type.Integer() });

/** The answer to a creation: the secret, this once. */
export const NewKeyResponse = describes<KeyView & { secret_key: string }>()(
  Type.Object({ ...KeyResponse.properties, secret_key: Type.String() }),
);

export const KeyRevokedResponse = Type.Object({ ok: Type.Literal(true), id: Type.Integer() });
