-- Billing: invoices and their lines, the ledger of money movements (transactions), and the replies
-- kept for Idempotency-Key retries. Money is integer minor units (cents) throughout. An account's
-- credit balance is never stored: it is SUM(credit_delta_minor) over its transactions, and each
-- row's balance_after_minor is computed under a per-account lock in the transaction that writes it.
CREATE SEQUENCE billing_invoice_number_seq;

CREATE TABLE billing_invoices (
  id                 bigserial PRIMARY KEY,
  -- INV-000001: one numbering per deployment, never reused.
  number             text NOT NULL UNIQUE,
  user_id            bigint NOT NULL,
  org_id             bigint,
  status             text NOT NULL CHECK (status IN
                       ('draft', 'unpaid', 'paid', 'cancelled', 'refunded', 'overdue')),
  currency           text NOT NULL,
  subtotal_minor     bigint NOT NULL CHECK (subtotal_minor >= 0),
  tax_minor          bigint NOT NULL DEFAULT 0 CHECK (tax_minor >= 0),
  total_minor        bigint NOT NULL CHECK (total_minor >= 0),
  amount_paid_minor  bigint NOT NULL DEFAULT 0 CHECK (amount_paid_minor >= 0),
  due_at             timestamptz NOT NULL,
  paid_at            timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_invoices_user_idx ON billing_invoices (user_id, created_at DESC, id DESC);

CREATE TABLE billing_invoice_lines (
  id                 bigserial PRIMARY KEY,
  invoice_id         bigint NOT NULL REFERENCES billing_invoices (id) ON DELETE CASCADE,
  description        text NOT NULL,
  quantity           integer NOT NULL CHECK (quantity > 0),
  unit_amount_minor  bigint NOT NULL,
  amount_minor       bigint NOT NULL,
  -- The service the line bills (services registry id), if any.
  service_id         bigint
);
CREATE INDEX billing_invoice_lines_invoice_idx ON billing_invoice_lines (invoice_id, id);
CREATE INDEX billing_invoice_lines_service_idx ON billing_invoice_lines (service_id) WHERE service_id IS NOT NULL;

-- The ledger. amount_minor is the money the row moves (always > 0; its direction is its type);
-- credit_delta_minor is its effect on the account's credit: + for credit_add, − for credit_deduct
-- (a payment from credit), 0 for a card payment or a card refund.
CREATE TABLE billing_transactions (
  id                   bigserial PRIMARY KEY,
  user_id              bigint NOT NULL,
  type                 text NOT NULL CHECK (type IN ('payment', 'refund', 'credit_add', 'credit_deduct')),
  amount_minor         bigint NOT NULL CHECK (amount_minor > 0),
  credit_delta_minor   bigint NOT NULL,
  currency             text NOT NULL,
  balance_after_minor  bigint NOT NULL CHECK (balance_after_minor >= 0),
  invoice_id           bigint REFERENCES billing_invoices (id),
  -- manual | stripe | credit
  gateway              text NOT NULL,
  -- The provider's reference of the charge (manual_…, ch_…/pi_…), null for credit movements.
  reference            text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (type = 'credit_add' AND credit_delta_minor = amount_minor)
    OR (type = 'credit_deduct' AND credit_delta_minor = -amount_minor)
    OR (type IN ('payment', 'refund'))
  )
);
CREATE INDEX billing_transactions_user_idx ON billing_transactions (user_id, created_at DESC, id DESC);
CREATE INDEX billing_transactions_invoice_idx ON billing_transactions (invoice_id) WHERE invoice_id IS NOT NULL;
