/**
 * The load-balancing module's tables as Kysely sees them: origin pools, their members, load
 * balancers (migrations/202611220004_dns_load_balancing.sql), the members' probes and health
 * changes (202611240005_dns_member_health_history.sql), named for this module since
 * 202611290001_load_balancing_own_tables.sql. Every row belongs to a zone of the DNS module
 * (`zone_id`); views are derived from these rows (`*-view.ts`).
 */
import type { Generated } from 'kysely';

export interface PoolRow {
  id: number;
  zone_id: number;
  name: string;
  description: string | null;
  algorithm: string;
  ttl: number;
  session_affinity: string;
  primary_location_code: string | null;
  enabled: boolean;
  /** Failed checks in a row that take a member down; null → the deployment's HEALTH_FALL. */
  health_fall: number | null;
  /** Passed checks in a row that bring a member back; null → the deployment's HEALTH_RISE. */
  health_rise: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  id: number;
  pool_id: number;
  zone_id: number;
  address: string;
  address_type: string;
  weight: number;
  priority: number;
  enabled: boolean;
  health_mode: string;
  health_path: string;
  health_port: number | null;
  health_interval_s: number;
  health_timeout_s: number;
  health_status: string;
  /** Quorum verdicts in a row that disagreed with health_status (flap damping). */
  health_streak: number;
  /** When the health last started over: probes before it do not count. */
  health_reset_at: Date | null;
  last_check_at: Date | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** One probe of a member, by the PoP that ran it (kept 7 days). */
export interface MemberProbeRow {
  id: Generated<number>;
  member_id: number;
  pop: string;
  at: Date;
  status: 'healthy' | 'unhealthy';
  latency_ms: number | null;
  error: string | null;
}

/** A change of a member's decided status, with the quorum that made it (kept 7 days). */
export interface MemberHealthChangeRow {
  id: Generated<number>;
  member_id: number;
  at: Date;
  from_status: string;
  to_status: string;
  reason: string;
}

export type PoolMap = Record<string, number[]>;

export interface LoadBalancerRow {
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
  created_at: Date;
  updated_at: Date;
}

export interface LoadBalancingTables {
  load_balancing_pools: PoolRow;
  load_balancing_members: MemberRow;
  load_balancing_member_probes: MemberProbeRow;
  load_balancing_member_health_changes: MemberHealthChangeRow;
  load_balancing_load_balancers: LoadBalancerRow;
}
