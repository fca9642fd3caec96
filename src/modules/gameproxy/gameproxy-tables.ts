/** The game proxy module's tables (migrations/202611291000_gameproxy.sql). */
import type { Generated } from 'kysely';

export type RouteMode = 'proxy' | 'status_only';

export interface RouteRow {
  id: Generated<number>;
  user_id: number;
  org_id: number | null;
  subdomain: string;
  base_domain: string;
  display_name: string | null;
  description: string | null;
  mode: RouteMode;
  upstream_service_id: number | null;
  upstream_host: string | null;
  upstream_port: number | null;
  location_id: number | null;
  online_motd: string | null;
  offline_motd: string | null;
  /** A `data:image/png;base64,...` server icon (64×64 PNG), or null. */
  favicon: string | null;
  version_name: string | null;
  status_cache_ttl_seconds: number;
  proxy_protocol: boolean;
  real_ip: boolean;
  created_at: Date;
  updated_at: Date;
}

export type CustomDomainStatus = 'pending' | 'verified' | 'failed';

export interface CustomDomainRow {
  route_id: number;
  /** The domain the user named (`example.com`). */
  domain: string;
  /** The label under it (`play`), or null for the domain itself. */
  subdomain: string | null;
  /** `subdomain.domain`: the name players type, pointed by CNAME at the route's address. */
  fqdn: string;
  status: CustomDomainStatus;
  include_in_list: boolean;
  /** The hosted zone where this module published the CNAME itself, or null. */
  managed_zone_id: number | null;
  checked_at: Date | null;
  next_check_at: Date;
  missed_checks: number;
  last_error: string | null;
  created_at: Date;
}

export interface BoostRow {
  id: Generated<number>;
  org_id: number;
  partner: string;
  claim_id: string;
  route_id: number;
  service_id: number;
  server_address: string;
  memory_mb: number;
  created_at: Date;
  expires_at: Date;
}

export interface GameproxyTables {
  gameproxy_routes: RouteRow;
  gameproxy_custom_domains: CustomDomainRow;
  gameproxy_boosts: BoostRow;
}

export type Route = Omit<RouteRow, 'id'> & { id: number };
export type Boost = Omit<BoostRow, 'id'> & { id: number };
