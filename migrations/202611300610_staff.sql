-- The staff console's team (docs/staff-console.md, "Roles"): a member's console role in an
-- organization. Owners and admins of the organization act as `admin` whatever this says; a member
-- without a row acts as `tier1`. The customer link ties a teammate to a storefront customer account.
CREATE TABLE staff_members (
  org_id              bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  user_id             bigint NOT NULL,
  -- admin, billing, tier3, tier2, tier1
  role                text NOT NULL,
  -- same_login, separate, or null (console-only)
  customer_link_mode  text,
  customer_id         bigint,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
