import { Type } from 'typebox';
import { LintFindingResponse } from '../lint/lint-schemas.ts';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { LoadBalancerView } from './load-balancer-view.ts';

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

/** A create or update answer: the object, with what the linter finds in it. */
export const LoadBalancerWriteResponse = Type.Object({
  ...LoadBalancerResponse.properties,
  warnings: Type.Array(LintFindingResponse),
});
