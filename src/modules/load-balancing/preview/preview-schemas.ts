import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { PreviewView } from './lb-preview-view.ts';

/** Where the client was placed, and from what (pop, resolver_ip, override). */
const ClientPlacement = Type.Object({
  source: Type.String(),
  pop: Type.String(),
  country: Nullable(Type.String()),
  region: Nullable(Type.String()),
  client_ip: Nullable(Type.String()),
});

export const PreviewBody = Type.Object(
  {
    qtype: Type.Optional(Type.Enum(['A', 'AAAA'])),
    client_ip: Type.Optional(Type.String({ maxLength: 64 })),
    ecs: Type.Optional(Type.String({ maxLength: 64 })),
    pop: Type.Optional(Type.String({ maxLength: 16 })),
    country: Type.Optional(Type.String({ maxLength: 2 })),
    region: Type.Optional(Type.String({ maxLength: 8 })),
  },
  { additionalProperties: false },
);

const PoolRef = Type.Object({ id: Type.Integer(), name: Type.String() });

export const PreviewResponse = describes<PreviewView>()(
  Type.Object({
    /** Which step of the cascade answered; null when nothing was answered. */
    cascade_hit: Nullable(
      Type.Enum(['location', 'country', 'region', 'default', 'fallback', 'proximity', 'serve_last']),
    ),
    reason: Type.Enum([
      'ok',
      'all_unhealthy_serve_last',
      'all_unhealthy',
      'no_members',
      'load_balancer_disabled',
    ]),
    /** true: the DNS answer would be SERVFAIL. */
    servfail: Type.Boolean(),
    pool: Nullable(PoolRef),
    answers: Type.Array(
      Type.Object({ type: Type.Enum(['A', 'AAAA']), address: Type.String(), member_id: Type.Integer() }),
    ),
    ttl: Type.Integer(),
    context: ClientPlacement,
    /** Each stage tried, with the pools looked at and why each was passed over. */
    trace: Type.Array(
      Type.Object({
        stage: Type.String(),
        key: Nullable(Type.String()),
        pools: Type.Array(
          Type.Object({
            id: Type.Integer(),
            name: Type.String(),
            skipped: Nullable(Type.String()),
            /** Proximity only: km from the client to the pool's primary location; null when unknown. */
            distance_km: Type.Optional(Nullable(Type.Number())),
          }),
        ),
      }),
    ),
  }),
);

/** GET .../traffic-share: where the client is (every field optional, as in the preview). */
export const TrafficShareQuery = Type.Object({
  qtype: Type.Optional(Type.Enum(['A', 'AAAA'])),
  pop: Type.Optional(Type.String({ maxLength: 16 })),
  country: Type.Optional(Type.String({ maxLength: 2 })),
  region: Type.Optional(Type.String({ maxLength: 8 })),
});

export const TrafficShareResponse = Type.Object({
  /** Each answering member's exact share of answers, largest first (then by member id). */
  members: Type.Array(
    Type.Object({
      member_id: Type.Integer(),
      pool_id: Type.Integer(),
      address: Type.String(),
      share: Type.Number(),
    }),
  ),
  /** Answers that are SERVFAIL (every pool down, on_all_unhealthy servfail). */
  servfail_share: Type.Number(),
  /** Answers with no address (no member of the family, or the load balancer disabled). */
  nodata_share: Type.Number(),
  context: ClientPlacement,
});
