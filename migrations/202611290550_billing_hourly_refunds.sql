-- Hourly plans are invoiced in arrears, one invoice per service and calendar month (UTC): the
-- daily run's steps are idempotent on it, as on billing_renewals, and its dunning covers both.
CREATE TABLE billing_hourly_invoices (
  service_id     bigint NOT NULL,
  -- The first instant of the month billed (UTC midnight of its first day).
  period_start   timestamptz NOT NULL,
  hours          integer NOT NULL CHECK (hours > 0),
  invoice_id     bigint NOT NULL REFERENCES billing_invoices (id) ON DELETE CASCADE,
  PRIMARY KEY (service_id, period_start)
);
CREATE UNIQUE INDEX billing_hourly_invoices_invoice_idx ON billing_hourly_invoices (invoice_id);

-- Refunds: what of an invoice's payment went back (to credit or to the card), never more than paid.
ALTER TABLE billing_invoices ADD COLUMN amount_refunded_minor bigint NOT NULL DEFAULT 0
  CHECK (amount_refunded_minor >= 0);
ALTER TABLE billing_invoices ADD CONSTRAINT billing_invoices_refund_le_paid
  CHECK (amount_refunded_minor <= amount_paid_minor);
-- A refund row gives its amount back to credit (+amount) or to the card (0).
ALTER TABLE billing_transactions ADD CONSTRAINT billing_transactions_refund_delta
  CHECK (type <> 'refund' OR credit_delta_minor IN (0, amount_minor));
