-- The daily billing run: one row per day run (claimed by one process at a time through claimed_until,
-- a lease another process may take over once it lapses; finished_at set when every step is done),
-- and the renewal invoices made, one per service and period (the run's steps are idempotent on it).
CREATE TABLE billing_runs (
  day            date PRIMARY KEY,
  claimed_until  timestamptz NOT NULL,
  finished_at    timestamptz
);

CREATE TABLE billing_renewals (
  service_id     bigint NOT NULL,
  -- The next_due_date the invoice renews from; paying it moves next_due_date one cycle on.
  period_start   timestamptz NOT NULL,
  invoice_id     bigint NOT NULL REFERENCES billing_invoices (id) ON DELETE CASCADE,
  PRIMARY KEY (service_id, period_start)
);
CREATE UNIQUE INDEX billing_renewals_invoice_idx ON billing_renewals (invoice_id);
