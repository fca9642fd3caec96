import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { LoadBalancerRow } from '../load-balancing-tables.ts';

/** A load balancer as the API shows it: every column of its row. */
export type LoadBalancerView = JsonView<LoadBalancerRow>;

export function loadBalancerView(lb: LoadBalancerRow): LoadBalancerView {
  return {
    id: lb.id,
    zone_id: lb.zone_id,
    name: lb.name,
    hostname: lb.hostname,
    ttl: lb.ttl,
    session_affinity: lb.session_affinity,
    steering_policy: lb.steering_policy,
    location_strategy: lb.location_strategy,
    default_pools: lb.default_pools,
    fallback_pool_id: lb.fallback_pool_id,
    region_pools: lb.region_pools,
    country_pools: lb.country_pools,
    location_pools: lb.location_pools,
    on_all_unhealthy: lb.on_all_unhealthy,
    enabled: lb.enabled,
    created_at: new Date(lb.created_at).toISOString(),
    updated_at: new Date(lb.updated_at).toISOString(),
  };
}
