import { Type } from 'typebox';

export const LoadBalancerParams = Type.Object({
  zone_id: Type.Integer({ minimum: 1 }),
  lb_id: Type.Integer({ minimum: 1 }),
});

const PoolId = Type.Integer({ minimum: 1 });
/** A steering list: pool ids in the order to try. */
const PoolList = Type.Array(PoolId, { minItems: 1 });
const PoolMap = Type.Record(Type.String({ minLength: 1, maxLength: 16 }), PoolList);

const lbFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  hostname: Type.String({ minLength: 1, maxLength: 255 }),
  ttl: Type.Integer({ minimum: 5, maximum: 3600 }),
  session_affinity: Type.Enum(['none', 'client_ip']),
  steering_policy: Type.Enum(['off', 'random', 'geo', 'proximity']),
  location_strategy: Type.Enum(['pop', 'resolver_ip']),
  default_pools: PoolList,
  fallback_pool_id: Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 1 }),
  region_pools: PoolMap,
  country_pools: PoolMap,
  location_pools: PoolMap,
  on_all_unhealthy: Type.Enum(['serve_last', 'servfail']),
  enabled: Type.Boolean(),
};

export const CreateLoadBalancerBody = Type.Object(
  {
    name: Type.Optional(lbFields.name),
    hostname: lbFields.hostname,
    ttl: Type.Optional(lbFields.ttl),
    session_affinity: Type.Optional(lbFields.session_affinity),
    steering_policy: Type.Optional(lbFields.steering_policy),
    location_strategy: Type.Optional(lbFields.location_strategy),
    default_pools: lbFields.default_pools,
    fallback_pool_id: Type.Optional(lbFields.fallback_pool_id),
    region_pools: Type.Optional(lbFields.region_pools),
    country_pools: Type.Optional(lbFields.country_pools),
    location_pools: Type.Optional(lbFields.location_pools),
    on_all_unhealthy: Type.Optional(lbFields.on_all_unhealthy),
    enabled: Type.Optional(lbFields.enabled),
  },
  { additionalProperties: false },
);

export const UpdateLoadBalancerBody = Type.Object(
  {
    name: Type.Optional(lbFields.name),
    hostname: Type.Optional(lbFields.hostname),
    ttl: Type.Optional(lbFields.ttl),
    session_affinity: Type.Optional(lbFields.session_affinity),
    steering_policy: Type.Optional(lbFields.steering_policy),
    location_strategy: Type.Optional(lbFields.location_strategy),
    default_pools: Type.Optional(lbFields.default_pools),
    fallback_pool_id: Type.Optional(lbFields.fallback_pool_id),
    region_pools: Type.Optional(lbFields.region_pools),
    country_pools: Type.Optional(lbFields.country_pools),
    location_pools: Type.Optional(lbFields.location_pools),
    on_all_unhealthy: Type.Optional(lbFields.on_all_unhealthy),
    enabled: Type.Optional(lbFields.enabled),
  },
  { additionalProperties: false },
);

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
