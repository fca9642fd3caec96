import { Type } from 'typebox';
import { describes, IsoTime } from '../../../kernel/http/view-schemas.ts';
import { pagePerPageQuery } from '../../../kernel/paging/paging.ts';
import type { RecordView } from './record-view.ts';

export const RecordParams = Type.Object({
  zone_id: Type.Integer({ minimum: 1 }),
  record_id: Type.Integer({ minimum: 1 }),
});

/** RFC 2181 §8: TTLs are 31-bit unsigned; 0 is refused here as it defeats caching entirely. */
const Ttl = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const CreateRecordBody = Type.Object(
  {
    name: Type.String({ maxLength: 255 }),
    type: Type.String({ minLength: 1, maxLength: 16 }),
    content: Type.String({ minLength: 1, maxLength: 65535 }),
    ttl: Type.Optional(Ttl),
  },
  { additionalProperties: false },
);

/** PUT replaces the record: the creation body, rules and all. */
export const ReplaceRecordBody = CreateRecordBody;

/** Records by name then type, page/per_page 100/1000, filters record_type (any case) and name. */
export const ListRecordsQuery = pagePerPageQuery(100, 1000, {
  record_type: Type.Optional(Type.String({ maxLength: 16 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
});

export const RecordResponse = describes<RecordView>()(
  Type.Object({
    id: Type.Integer(),
    zone_id: Type.Integer(),
    /** FQDN in stored form: lower case, no trailing dot. */
    name: Type.String(),
    type: Type.String(),
    /** RDATA in canonical presentation form. */
    content: Type.String(),
    ttl: Type.Integer(),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
);
