/** The platform domains module's table (migrations/202611240003_platform_domains.sql). */
import type { Generated } from 'kysely';

export interface ClaimRow {
  id: Generated<number>;
  user_id: number;
  label: string;
  suffix: string;
  /** The claim's own zone (null only while it is being made). */
  zone_id: number | null;
  /** When its wildcard certificate was last asked for; null: waiting for the suffix's delegation. */
  certificate_requested_at: Date | null;
  created_at: Date;
}

export interface PlatformDomainsTables {
  platform_domains_claims: ClaimRow;
}

export type Claim = Omit<ClaimRow, 'id'> & { id: number };
