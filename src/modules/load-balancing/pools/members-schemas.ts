import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { MemberView } from './member-view.ts';

export const MemberParams = Type.Object({
  zone_id: Type.Integer({ minimum: 1 }),
  pool_id: Type.Integer({ minimum: 1 }),
  member_id: Type.Integer({ minimum: 1 }),
});

/**
 * Weight 1–100, priority 0 or more; the health ranges are this product's choice (interval
 * 10–3600 s, timeout 1–30 s).
 */
export const CreateMemberBody = Type.Object(
  {
    address: Type.String({ maxLength: 64 }),
    address_type: Type.Optional(Type.Enum(['A', 'AAAA'])),
    weight: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    priority: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
    enabled: Type.Optional(Type.Boolean()),
    health_mode: Type.Optional(Type.Enum(['none', 'http', 'https', 'tcp'])),
    health_path: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    health_port: Type.Optional(
      Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 65535 }),
    ),
    health_interval_s: Type.Optional(Type.Integer({ minimum: 10, maximum: 3600 })),
    health_timeout_s: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })),
  },
  { additionalProperties: false },
);

/** PATCH: any field of creation; `address_type` is accepted only when it equals the member's (it cannot change). */
export const UpdateMemberBody = Type.Partial(CreateMemberBody, { additionalProperties: false });

export const MemberResponse = describes<MemberView>()(
  Type.Object({
    id: Type.Integer(),
    pool_id: Type.Integer(),
    /** Canonical text of the IP address. */
    address: Type.String(),
    address_type: Type.String(),
    weight: Type.Integer(),
    priority: Type.Integer(),
    enabled: Type.Boolean(),
    health_mode: Type.String(),
    health_path: Type.String(),
    health_port: Nullable(Type.Integer()),
    health_interval_s: Type.Integer(),
    health_timeout_s: Type.Integer(),
    /** unknown | healthy | unhealthy, as the checker last stored it. */
    health_status: Type.String(),
    last_check_at: Nullable(IsoTime),
    last_error: Nullable(Type.String()),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
);
