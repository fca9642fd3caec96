import { Type } from 'typebox';

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
