/** The zone-transfer tables as Kysely sees them (migrations/202611220009_dns_zone_transfers.sql). */
import type { Generated } from 'kysely';
import type { DnsTables } from '../shared/dns-tables.ts';

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

export interface TransferTables extends DnsTables {
  dns_zone_transfers: ZoneTransferRow;
  dns_zone_versions: ZoneVersionRow;
}
