import type { LoadBalancerRow, PoolMap } from '../dns-tables.ts';

/** A load balancer as the API shows it (the seed leaves the response open; these are its fields). */
export interface LoadBalancerView {
  id: number;
  zone_id: number;
  name: string;
  hostname: string;
  ttl: number;
  session_affinity: string;
  steering_policy: string;
  location_strategy: string;
  default_pools: number[];
  fallback_pool_id: number | null;
  region_pools: PoolMap;
  country_pools: PoolMap;
  location_pools: PoolMap;
  on_all_unhealthy: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

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
