import { Type } from 'typebox';

export const MemberParams = Type.Object({
  zone_id: Type.Integer({ minimum: 1 }),
  pool_id: Type.Integer({ minimum: 1 }),
  member_id: Type.Integer({ minimum: 1 }),
});

/** Seed: weight 1–100, priority 0 or more; health ranges are this product's (interval 10–3600 s, timeout 1–30 s). */
const memberFields = {
  address: Type.String({ maxLength: 64 }),
  address_type: Type.Enum(['A', 'AAAA']),
  weight: Type.Integer({ minimum: 1, maximum: 100 }),
  priority: Type.Integer({ minimum: 0, maximum: 2147483647 }),
  enabled: Type.Boolean(),
  health_mode: Type.Enum(['none', 'http', 'https', 'tcp']),
  health_path: Type.String({ minLength: 1, maxLength: 2048 }),
  health_port: Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 65535 }),
  health_interval_s: Type.Integer({ minimum: 10, maximum: 3600 }),
  health_timeout_s: Type.Integer({ minimum: 1, maximum: 30 }),
};

export const CreateMemberBody = Type.Object(
  {
    address: memberFields.address,
    address_type: Type.Optional(memberFields.address_type),
    weight: Type.Optional(memberFields.weight),
    priority: Type.Optional(memberFields.priority),
    enabled: Type.Optional(memberFields.enabled),
    health_mode: Type.Optional(memberFields.health_mode),
    health_path: Type.Optional(memberFields.health_path),
    health_port: Type.Optional(memberFields.health_port),
    health_interval_s: Type.Optional(memberFields.health_interval_s),
    health_timeout_s: Type.Optional(memberFields.health_timeout_s),
  },
  { additionalProperties: false },
);

/** PATCH: any field; `address_type` is accepted only when it equals the member's (it cannot change). */
export const UpdateMemberBody = Type.Object(
  {
    address: Type.Optional(memberFields.address),
    address_type: Type.Optional(memberFields.address_type),
    weight: Type.Optional(memberFields.weight),
    priority: Type.Optional(memberFields.priority),
    enabled: Type.Optional(memberFields.enabled),
    health_mode: Type.Optional(memberFields.health_mode),
    health_path: Type.Optional(memberFields.health_path),
    health_port: Type.Optional(memberFields.health_port),
    health_interval_s: Type.Optional(memberFields.health_interval_s),
    health_timeout_s: Type.Optional(memberFields.health_timeout_s),
  },
  { additionalProperties: false },
);
