/**
 * The DNS module's tables as Kysely sees them (migrations/*_dns_*.sql): zones and records, load
 * balancing, DNSSEC keys, zone transfers. Views are derived from these rows (`*-view.ts`).
 */
import type { Generated } from 'kysely';

/** migrations/202611220003_dns_zones_records.sql */
export interface ZoneRow {
  id: number;
  /** null: a zone the platform holds for a module (managed_by names it). */
  user_id: number | null;
  org_id: number | null;
  service_id: number | null;
  domain: string;
  status: string;
  dnssec_enabled: boolean;
  serial: number;
  soa_email: string | null;
  default_ttl: number;
  soa_refresh: number;
  soa_retry: number;
  soa_expire: number;
  soa_minimum: number;
  soa_ttl: number;
  /** migrations/202611240001_dns_managed_zones.sql: the module that manages the zone, if any. */
  managed_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface RecordRow {
  id: number;
  zone_id: number;
  name: string;
  type: string;
  type_code: number;
  content: string;
  rdata: Uint8Array;
  ttl: number;
  managed_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** migrations/202611220004_dns_load_balancing.sql */
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

/** migrations/202611220005_dns_dnssec_keys.sql */
export type KeyRole = 'ksk' | 'zsk';
export type KeyState = 'published' | 'active' | 'retired';
/** A running KSK rollover's step (dnssec/ksk-rollover.ts). */
export type KskRolloverState = 'waiting_for_parent_ds' | 'parent_ds_seen' | 'retiring_old_key';

export interface DnssecZoneRow {
  zone_id: number;
  algorithm: number;
  disabling_since: Date | null;
  zsk_rotated_at: Date | null;
  created_at: Date;
  /** migrations/202611240004_dns_ksk_rollover.sql: null while no KSK rollover runs. */
  ksk_rollover_state?: KskRolloverState | null;
  ksk_rollover_started_at?: Date | null;
  ksk_parent_check_at?: Date | null;
  ksk_parent_ds_seen_at?: Date | null;
  ksk_parent_ds_ttl?: number | null;
}

export interface DnssecKeyRow {
  id: Generated<number>;
  zone_id: number;
  role: KeyRole;
  state: KeyState;
  algorithm: number;
  key_tag: number;
  /** DNSKEY RDATA. */
  dnskey: Uint8Array;
  /** AES-256-GCM: iv | tag | ciphertext of the PKCS #8 private key. */
  private_key: Uint8Array;
  published_at: Date;
  activated_at: Date | null;
  retired_at: Date | null;
}

/** migrations/202611220009_dns_zone_transfers.sql */
export interface ZoneTransferRow {
  zone_id: number;
  allow_from: string[];
  notify: string[];
  tsig_name: string | null;
  tsig_algorithm: string | null;
  /** AES-256-GCM: iv | tag | ciphertext of the TSIG secret. */
  tsig_secret: Uint8Array | null;
  updated_at: Date;
}

export interface ZoneVersionRow {
  id: Generated<number>;
  zone_id: number;
  serial: number;
  /** zone-version-codec.ts */
  records: Uint8Array;
  created_at: Date;
}

export interface DnsTables {
  dns_zones: ZoneRow;
  dns_records: RecordRow;
  dns_lb_pools: PoolRow;
  dns_lb_members: MemberRow;
  dns_lb_member_probes: MemberProbeRow;
  dns_lb_member_health_changes: MemberHealthChangeRow;
  dns_load_balancers: LoadBalancerRow;
  dns_dnssec_zones: DnssecZoneRow;
  dns_dnssec_keys: DnssecKeyRow;
  dns_zone_transfers: ZoneTransferRow;
  dns_zone_versions: ZoneVersionRow;
}
