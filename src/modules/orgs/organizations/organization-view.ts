import type { OrgRole } from '../../../kernel/auth/principal.ts';
import type { OrgRow } from '../orgs-tables.ts';

/** The seed's organization shape: the row (deleted_at left out) and the caller's role. */
export type OrganizationView = Omit<
  OrgRow,
  'created_at' | 'updated_at' | 'deleted_at' | 'commerce_enabled'
> & {
  created_at: string | null;
  updated_at: string | null;
  my_role: OrgRole | null;
};

export function organizationView(row: OrgRow, myRole: OrgRole | null): OrganizationView {
  return {
    id: Number(row.id),
    slug: row.slug,
    name: row.name,
    owner_user_id: Number(row.owner_user_id),
    parent_org_id: row.parent_org_id === null ? null : Number(row.parent_org_id),
    tier: row.tier,
    status: row.status,
    billing_mode: row.billing_mode,
    platform_fee_percent: String(row.platform_fee_percent),
    max_customers: Number(row.max_customers),
    max_services: Number(row.max_services),
    max_sub_resellers: Number(row.max_sub_resellers),
    max_api_calls_month: Number(row.max_api_calls_month),
    max_custom_products: Number(row.max_custom_products),
    created_at: row.created_at ? new Date(row.created_at).toISOString() : null,
    updated_at: row.updated_at ? new Date(row.updated_at).toISOString() : null,
    my_role: myRole,
  };
}
