-- A service an organization holds for one of its storefront customers names the customer
-- (identity's storefront realm); activated_at is when it first became active (hourly plans are
-- billed in arrears from it).
ALTER TABLE services ADD COLUMN customer_id bigint;
ALTER TABLE services ADD COLUMN activated_at timestamptz;
CREATE INDEX services_customer_idx ON services (org_id, customer_id, id DESC) WHERE customer_id IS NOT NULL;
