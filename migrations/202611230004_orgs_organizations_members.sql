-- Organizations (resellers) and their members. A deleted organization keeps its row and slug
-- (status 'deleted'): nothing is erased, platform staff can reactivate it.
CREATE TABLE orgs (
  id                    bigserial PRIMARY KEY,
  slug                  text NOT NULL UNIQUE,
  name                  text NOT NULL,
  owner_user_id         bigint NOT NULL REFERENCES identity_users (id),
  parent_org_id         bigint REFERENCES orgs (id),
  tier                  text NOT NULL DEFAULT 'standard',
  status                text NOT NULL DEFAULT 'active'
                        CHECK (status IN ('pending', 'active', 'suspended', 'closed', 'deleted')),
  billing_mode          text NOT NULL DEFAULT 'platform_mor',
  platform_fee_percent  numeric(5, 2) NOT NULL DEFAULT 0,
  max_customers         integer NOT NULL DEFAULT 1000,
  max_services          integer NOT NULL DEFAULT 1000,
  max_sub_resellers     integer NOT NULL DEFAULT 0,
  max_api_calls_month   bigint NOT NULL DEFAULT 1000000,
  max_custom_products   integer NOT NULL DEFAULT 100,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  deleted_at            timestamptz
);

CREATE TABLE orgs_members (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  user_id     bigint NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
  role        text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, user_id)
);
CREATE INDEX orgs_members_user_idx ON orgs_members (user_id);
-- Exactly one owner per organization.
CREATE UNIQUE INDEX orgs_members_one_owner ON orgs_members (org_id) WHERE role = 'owner';
