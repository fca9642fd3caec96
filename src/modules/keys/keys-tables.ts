import type { Generated } from 'kysely';

/**
 * The keys module's tables as Kysely sees them (migrations/*_keys_*.sql, *_partner_keys.sql):
 * account API keys (which the API never accepts), organization API keys (the Commerce API) and
 * partner keys (a partner's boost claims). Only a digest of each key is stored, with a short lookup
 * prefix.
 */
export interface AccountKeyRow {
  id: number;
  user_id: number;
  label: string;
  permissions: string[];
  ip_whitelist: string[];
  /** The key's first characters, to find its row; not a secret on its own. */
  lookup: string;
  /** SHA-256 of the whole key, hex. */
  key_hash: string;
  is_active: boolean;
  created_at: Date;
  deleted_at: Date | null;
}

export interface OrgKeyRow {
  id: number;
  org_id: number;
  label: string;
  scopes: string[];
  rate_limit_per_hour: number;
  ip_whitelist: string[];
  lookup: string;
  key_hash: string;
  is_active: boolean;
  created_at: Date;
  revoked_at: Date | null;
}

/** A partner's key for its boost claims in one organization (migrations/202611291010_partner_keys.sql). */
export interface PartnerKeyRow {
  id: Generated<number>;
  org_id: number;
  /** The partner's slug (a-z, 0-9, -). */
  partner: string;
  lookup: string;
  key_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

export interface KeysTables {
  keys_account_keys: AccountKeyRow;
  keys_org_keys: OrgKeyRow;
  keys_partner_keys: PartnerKeyRow;
}
