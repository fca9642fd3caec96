import { Type } from 'typebox';
import { CreateMemberBody } from './members-schemas.ts';

export const PoolParams = Type.Object({
  zone_id: Type.Integer({ minimum: 1 }),
  pool_id: Type.Integer({ minimum: 1 }),
});

/** Seed "Origin pool": name 1–100, ttl 5–3600 (default 30), algorithm and affinity words. */
const poolFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000 }),
  algorithm: Type.Enum(['weighted_rr', 'failover']),
  ttl: Type.Integer({ minimum: 5, maximum: 3600 }),
  session_affinity: Type.Enum(['none', 'client_ip']),
  primary_location_code: Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 32 }),
  enabled: Type.Boolean(),
};

const createFields = {
  name: poolFields.name,
  description: Type.Optional(poolFields.description),
  algorithm: Type.Optional(poolFields.algorithm),
  ttl: Type.Optional(poolFields.ttl),
  session_affinity: Type.Optional(poolFields.session_affinity),
  primary_location_code: Type.Optional(poolFields.primary_location_code),
  enabled: Type.Optional(poolFields.enabled),
  /** Members created with the pool, all or nothing. */
  members: Type.Optional(Type.Array(CreateMemberBody)),
};

export const CreatePoolBody = Type.Object(createFields, { additionalProperties: false });

/** The /lb-pools family also takes `hostname`: a load balancer for it is created with the pool. */
export const CreateLbPoolBody = Type.Object(
  { ...createFields, hostname: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) },
  { additionalProperties: false },
);

export const UpdatePoolBody = Type.Object(
  {
    name: Type.Optional(poolFields.name),
    description: Type.Optional(poolFields.description),
    algorithm: Type.Optional(poolFields.algorithm),
    ttl: Type.Optional(poolFields.ttl),
    session_affinity: Type.Optional(poolFields.session_affinity),
    primary_location_code: Type.Optional(poolFields.primary_location_code),
    enabled: Type.Optional(poolFields.enabled),
  },
  { additionalProperties: false },
);
