/** The organizations module's tables as Kysely sees them (migrations/*_orgs_*.sql). */
import type { OrgRole } from '../../kernel/auth/principal.ts';

export type OrgStatus = 'pending' | 'active' | 'suspended' | 'closed' | 'deleted';

export interface OrgRow {
  id: number;
  slug: string;
  name: string;
  owner_user_id: number;
  parent_org_id: number | null;
  tier: string;
  status: OrgStatus;
  billing_mode: string;
  /** numeric(5,2), read as text ("0.00"): never a float. */
  platform_fee_percent: string;
  max_customers: number;
  max_services: number;
  max_sub_resellers: number;
  max_api_calls_month: number;
  max_custom_products: number;
  commerce_enabled: boolean;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

export interface OrgMemberRow {
  id: number;
  org_id: number;
  user_id: number;
  role: OrgRole;
  created_at: Date;
}

export interface OrgsTables {
  orgs: OrgRow;
  orgs_members: OrgMemberRow;
}
