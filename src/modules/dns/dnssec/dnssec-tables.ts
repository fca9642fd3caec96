/** The DNSSEC tables as Kysely sees them (migrations/202611220005_dns_dnssec_keys.sql). */
import type { Generated } from 'kysely';
import type { DnsTables } from '../shared/dns-tables.ts';

export type KeyRole = 'ksk' | 'zsk';
export type KeyState = 'published' | 'active' | 'retired';

export interface DnssecZoneRow {
  zone_id: number;
  algorithm: number;
  disabling_since: Date | null;
  zsk_rotated_at: Date | null;
  created_at: Date;
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

export interface DnssecTables extends DnsTables {
  dns_dnssec_zones: DnssecZoneRow;
  dns_dnssec_keys: DnssecKeyRow;
}
