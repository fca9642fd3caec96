import { Type } from 'typebox';
import type { LintFinding } from './lb-linter.ts';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { PreviewView } from './lb-preview-view.ts';
import type { LoadBalancerView } from './load-balancer-view.ts';

export const LoadBalancerParams = Type.Object({
  zone_id: Type.Integer({ minimum: 1 }),
  lb_id: Type.Integer({ minimum: 1 }),
});

const PoolId = Type.Integer({ minimum: 1 });
/** A steering list: pool ids in the order to try. */
const PoolList = Type.Array(PoolId, { minItems: 1 });
const PoolMap = Type.Record(Type.String({ minLength: 1, maxLength: 16 }), PoolList);

export const CreateLoadBalancerBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    hostname: Type.String({ minLength: 1, maxLength: 255 }),
    ttl: Type.Optional(Type.Integer({ minimum: 5, maximum: 3600 })),
    session_affinity: Type.Optional(Type.Enum(['none', 'client_ip'])),
    steering_policy: Type.Optional(Type.Enum(['off', 'random', 'geo', 'proximity'])),
    location_strategy: Type.Optional(Type.Enum(['pop', 'resolver_ip'])),
    default_pools: PoolList,
    fallback_pool_id: Type.Optional(Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1 })),
    region_pools: Type.Optional(PoolMap),
    country_pools: Type.Optional(PoolMap),
    location_pools: Type.Optional(PoolMap),
    on_all_unhealthy: Type.Optional(Type.Enum(['serve_last', 'servfail'])),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** PATCH: any field of creation. */
export const UpdateLoadBalancerBody = Type.Partial(CreateLoadBalancerBody, { additionalProperties: false });

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

/** A steering map as stored: keys in stored form (upper case codes), pool ids in order. */
const PoolMapResponse = Type.Record(Type.String(), Type.Array(Type.Integer()));

export const LoadBalancerResponse = describes<LoadBalancerView>()(
  Type.Object({
    id: Type.Integer(),
    zone_id: Type.Integer(),
    name: Type.String(),
    /** FQDN in stored form. */
    hostname: Type.String(),
    ttl: Type.Integer(),
    session_affinity: Type.String(),
    steering_policy: Type.String(),
    location_strategy: Type.String(),
    default_pools: Type.Array(Type.Integer()),
    fallback_pool_id: Nullable(Type.Integer()),
    region_pools: PoolMapResponse,
    country_pools: PoolMapResponse,
    location_pools: PoolMapResponse,
    on_all_unhealthy: Type.String(),
    enabled: Type.Boolean(),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
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

/** One finding of the load-balancing linter (lb-linter.ts). */
export const LintFindingResponse = describes<LintFinding>()(
  Type.Object({
    severity: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('info')]),
    code: Type.String({
      description:
        'pool_unreachable, country_same_as_region, unknown_pop, proximity_pool_without_location, ' +
        'fallback_is_only_default, no_enabled_members, no_members_of_family, short_ttl_with_affinity, ' +
        'failover_member_unmonitored, pool_unreferenced',
    }),
    message: Type.String(),
    /** Dotted path into the object's body (`country_pools.BR`); the zone's list starts with the object. */
    path: Type.String(),
  }),
);

/** A create or update answer: the object, with what the linter finds in it. */
export const LoadBalancerWriteResponse = Type.Object({
  ...LoadBalancerResponse.properties,
  warnings: Type.Array(LintFindingResponse),
});

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
