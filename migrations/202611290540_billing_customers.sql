-- Billing for an organization's storefront customers. A customer's invoice names the customer
-- (identity's storefront realm) and who sells: the platform (platform_mor: the organization is paid
-- its share, a settlement row) or the organization (merchant_of_record: the platform bills the
-- organization a wholesale invoice of the same lines). A customer's ledger rows name the customer:
-- they make the customer's own credit balance and never count in an account's.
ALTER TABLE billing_invoices ADD COLUMN customer_id bigint;
ALTER TABLE billing_invoices ADD COLUMN seller text NOT NULL DEFAULT 'platform'
  CHECK (seller IN ('platform', 'organization'));
CREATE INDEX billing_invoices_org_customer_idx ON billing_invoices (org_id, created_at DESC, id DESC)
  WHERE customer_id IS NOT NULL;
CREATE INDEX billing_invoices_customer_idx ON billing_invoices (customer_id, created_at DESC, id DESC)
  WHERE customer_id IS NOT NULL;

ALTER TABLE billing_transactions ADD COLUMN org_id bigint;
ALTER TABLE billing_transactions ADD COLUMN customer_id bigint;
-- A chargeback: the card issuer took a payment back; it moves no credit.
ALTER TABLE billing_transactions DROP CONSTRAINT billing_transactions_type_check;
ALTER TABLE billing_transactions ADD CONSTRAINT billing_transactions_type_check
  CHECK (type IN ('payment', 'refund', 'chargeback', 'credit_add', 'credit_deduct'));
ALTER TABLE billing_transactions DROP CONSTRAINT billing_transactions_check;
ALTER TABLE billing_transactions ADD CONSTRAINT billing_transactions_check CHECK (
  (type = 'credit_add' AND credit_delta_minor = amount_minor)
  OR (type = 'credit_deduct' AND credit_delta_minor = -amount_minor)
  OR (type = 'chargeback' AND credit_delta_minor = 0)
  OR (type IN ('payment', 'refund'))
);
CREATE INDEX billing_transactions_customer_idx ON billing_transactions (customer_id, created_at DESC, id DESC)
  WHERE customer_id IS NOT NULL;

-- The organization's share of a customer's payment under platform_mor: one per paid invoice.
CREATE TABLE billing_settlements (
  id           bigserial PRIMARY KEY,
  invoice_id   bigint NOT NULL UNIQUE REFERENCES billing_invoices (id),
  org_id       bigint NOT NULL,
  gross_minor  bigint NOT NULL,
  fee_minor    bigint NOT NULL,
  net_minor    bigint NOT NULL,
  currency     text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_settlements_org_idx ON billing_settlements (org_id, created_at DESC, id DESC);

-- Under the hybrid mode, who sells each product to the organization's customers (platform_mor when absent).
CREATE TABLE billing_product_modes (
  org_id      bigint NOT NULL,
  product_id  bigint NOT NULL,
  mode        text NOT NULL CHECK (mode IN ('platform_mor', 'merchant_of_record')),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, product_id)
);
