-- The staff console's coupons (docs/staff-console.md, "Coupons"): codes an organization's storefront
-- customers give when they order a hosting service. A code is unique per organization whatever its
-- case (code_key is its lower-case form). Money in integer minor units; a percent in hundredths.
CREATE TABLE staff_coupons (
  id                  bigserial PRIMARY KEY,
  org_id              bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  code                text NOT NULL,
  code_key            text NOT NULL,
  description         text NOT NULL DEFAULT '',
  -- percent, fixed
  kind                text NOT NULL,
  -- percent: hundredths of a percent (12.5% = 1250); fixed: minor units of currency
  amount              integer NOT NULL,
  currency            text,
  -- product ids the coupon is for (JSON array), or null for every product
  applies_to          jsonb,
  first_invoice_only  boolean NOT NULL DEFAULT true,
  max_redemptions     integer,
  per_customer_limit  integer,
  redeemed_count      integer NOT NULL DEFAULT 0,
  starts_at           timestamptz,
  ends_at             timestamptz,
  -- active, disabled, expired
  status              text NOT NULL,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  UNIQUE (org_id, code_key)
);

CREATE TABLE staff_coupon_redemptions (
  id              bigserial PRIMARY KEY,
  coupon_id       bigint NOT NULL REFERENCES staff_coupons (id) ON DELETE CASCADE,
  org_id          bigint NOT NULL,
  customer_id     bigint NOT NULL,
  service_id      bigint NOT NULL,
  product_id      bigint NOT NULL,
  currency        text NOT NULL,
  discount_minor  integer NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX staff_coupon_redemptions_coupon ON staff_coupon_redemptions (coupon_id, customer_id);

-- Whether the organization's checkout takes coupon codes (no row: it does).
CREATE TABLE staff_coupon_settings (
  org_id      bigint PRIMARY KEY REFERENCES orgs (id) ON DELETE CASCADE,
  enabled     boolean NOT NULL,
  updated_at  timestamptz NOT NULL
);
