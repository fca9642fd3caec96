import { Type } from 'typebox';
import { describes, IsoTime } from '../../../kernel/http/view-schemas.ts';
import type { PresignedObjectUrl } from './presign-service.ts';

export const PresignParams = Type.Object({
  service_id: Type.Integer({ minimum: 1 }),
  bucket_id: Type.Integer({ minimum: 1 }),
});

export const PresignBody = Type.Object(
  {
    method: Type.Union([Type.Literal('GET'), Type.Literal('PUT'), Type.Literal('DELETE')]),
    key: Type.String({ minLength: 1, maxLength: 1024 }),
    expires_in: Type.Optional(Type.Integer({ minimum: 1, default: 900 })),
    content_type: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const PresignResponse = describes<PresignedObjectUrl>()(
  Type.Object({
    url: Type.String(),
    method: Type.Union([Type.Literal('GET'), Type.Literal('PUT'), Type.Literal('DELETE')]),
    key: Type.String(),
    expires_at: IsoTime,
    headers: Type.Record(Type.String(), Type.String()),
  }),
);
