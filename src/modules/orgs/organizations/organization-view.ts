import type { OrgRole } from '../../../kernel/auth/principal.ts';
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { OrgRow } from '../orgs-tables.ts';

/**
 * An organization as the routes answer it (docs/identity-and-organizations.md, "Organizations"):
 * the row (deleted_at and the Commerce switch, which the settings show, left out) and the caller's
 * role.
 */
export type OrganizationView = JsonView<Omit<OrgRow, 'deleted_at' | 'commerce_enabled'>> & {
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
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    my_role: myRole,
  };
}
