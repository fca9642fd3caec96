import { Type } from 'typebox';
import { LintFindingResponse } from '../lint/lint-schemas.ts';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { CreateMemberBody, MemberResponse } from './members-schemas.ts';
import type { PoolView } from './pool-view.ts';

export const PoolParams = Type.Object({
  zone_id: Type.Integer({ minimum: 1 }),
  pool_id: Type.Integer({ minimum: 1 }),
});

/** Checks in a row that move a member of the pool (flap damping): 1–10, or null. */
const dampingRun = (description: string) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1, maximum: 10, description });
const DAMPING_FALL =
  'Failed checks in a row that take a member of the pool down (1–10); null: the deployment default (HEALTH_FALL, 1).';
const DAMPING_RISE =
  'Passed checks in a row that bring a member of the pool back (1–10); null: the deployment default (HEALTH_RISE, 1).';

/** An origin pool: name 1–100, ttl 5–3600 (default 30), algorithm and affinity words. */
export const CreatePoolBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 1000 })),
    algorithm: Type.Optional(Type.Enum(['weighted_rr', 'failover'])),
    ttl: Type.Optional(Type.Integer({ minimum: 5, maximum: 3600 })),
    session_affinity: Type.Optional(Type.Enum(['none', 'client_ip'])),
    primary_location_code: Type.Optional(
      Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 32 }),
    ),
    enabled: Type.Optional(Type.Boolean()),
    health_fall: Type.Optional(dampingRun(DAMPING_FALL)),
    health_rise: Type.Optional(dampingRun(DAMPING_RISE)),
    /** Members created with the pool, all or nothing. */
    members: Type.Optional(Type.Array(CreateMemberBody)),
  },
  { additionalProperties: false },
);

/** The /lb-pools family also takes `hostname`: a load balancer for it is created with the pool. */
export const CreateLbPoolBody = Type.Object(
  { ...CreatePoolBody.properties, hostname: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) },
  { additionalProperties: false },
);

/** PATCH: any field of creation but `members` (changed under .../members). */
export const UpdatePoolBody = Type.Partial(Type.Omit(CreatePoolBody, ['members']), {
  additionalProperties: false,
});

export const PoolResponse = describes<PoolView>()(
  Type.Object({
    id: Type.Integer(),
    zone_id: Type.Integer(),
    name: Type.String(),
    description: Nullable(Type.String()),
    algorithm: Type.String(),
    ttl: Type.Integer(),
    session_affinity: Type.String(),
    primary_location_code: Nullable(Type.String()),
    enabled: Type.Boolean(),
    health_fall: Type.Unsafe<number | null>({ type: ['integer', 'null'], description: DAMPING_FALL }),
    health_rise: Type.Unsafe<number | null>({ type: ['integer', 'null'], description: DAMPING_RISE }),
    /** The hostname of the first load balancer (by id) whose default pools hold the pool. */
    hostname: Nullable(Type.String()),
    members: Type.Array(MemberResponse),
    /** Enabled members not known to be unhealthy. */
    healthy_members: Type.Integer(),
    total_members: Type.Integer(),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
);

/** A create or update answer: the pool, with what the linter finds in it. */
export const PoolWriteResponse = Type.Object({
  ...PoolResponse.properties,
  warnings: Type.Array(LintFindingResponse),
});
