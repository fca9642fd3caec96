/**
 * The DNS module's tables as Kysely sees them (migrations/*_dns_*.sql): zones and records, DNSSEC
 * keys, zone transfers. Views are derived from these rows (`*-view.ts`).
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

/** migrations/202611220005_dns_dnssec_keys.sql */
export type KeyRole = 'ksk' | 'zsk';
export type KeyState = 'published' | 'active' | 'retired';
/** A running KSK rollover's step (dnssec/ksk-rollover.ts). */
export type KskRolloverState = 'waiting_for_parent_ds' | 'parent_ds_seen' | 'retiring_old_key';

export interface DnssecZoneRow {
  zone_id: number;
  algorithm: number;
  /** migrations/202611301300_dns_dnssec_denial.sql: how negative answers are proven. */
  denial: 'nsec3' | 'online';
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
  dns_dnssec_zones: DnssecZoneRow;
  dns_dnssec_keys: DnssecKeyRow;
  dns_zone_transfers: ZoneTransferRow;
  dns_zone_versions: ZoneVersionRow;
}
