-- The shop's money (docs/commerce.md, "Balance, ledger, disputes and payouts"): a double-entry
-- ledger whose entries sum to zero per transaction and currency, disputes reported by the payment
-- provider, payouts, and the merchant profile. Balances are never stored: they are sums of entries.

CREATE TABLE commerce_ledger_transactions (
  id             bigserial PRIMARY KEY,
  org_id         bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  -- capture, fee, refund, fee_refund, dispute_hold, dispute_won, dispute_lost, payout
  type           text NOT NULL,
  currency_code  text NOT NULL,
  order_id       bigint,
  payment_id     bigint,
  refund_id      bigint,
  dispute_id     bigint,
  payout_id      bigint,
  created_at     timestamptz NOT NULL
);
CREATE INDEX commerce_ledger_transactions_org_idx ON commerce_ledger_transactions (org_id, id);
-- A capture, its fee, a refund's share of a payment are ledgered once.
CREATE UNIQUE INDEX commerce_ledger_transactions_once_idx
  ON commerce_ledger_transactions (type, payment_id, COALESCE(refund_id, 0), COALESCE(dispute_id, 0))
  WHERE payment_id IS NOT NULL;

CREATE TABLE commerce_ledger_entries (
  id              bigserial PRIMARY KEY,
  transaction_id  bigint NOT NULL REFERENCES commerce_ledger_transactions (id) ON DELETE CASCADE,
  org_id          bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  -- customer, pending, available, held, fees, payouts
  account         text NOT NULL,
  currency_code   text NOT NULL,
  amount_minor    bigint NOT NULL,
  -- For `pending` entries: when the money counts as available (the payout schedule).
  available_on    timestamptz
);
CREATE INDEX commerce_ledger_entries_tx_idx ON commerce_ledger_entries (transaction_id);
CREATE INDEX commerce_ledger_entries_org_idx ON commerce_ledger_entries (org_id, currency_code, account);

CREATE TABLE commerce_disputes (
  id                   bigserial PRIMARY KEY,
  org_id               bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id             bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  payment_id           bigint NOT NULL REFERENCES commerce_payments (id) ON DELETE CASCADE,
  provider             text NOT NULL,
  provider_dispute_id  text NOT NULL,
  amount_minor         bigint NOT NULL CHECK (amount_minor > 0),
  currency_code        text NOT NULL,
  reason               text NOT NULL,
  -- The provider's status: needs_response, under_review, won, lost (warning_* as given).
  status               text NOT NULL,
  evidence             jsonb NOT NULL DEFAULT '{}',
  evidence_due_by      timestamptz,
  submitted_at         timestamptz,
  closed_at            timestamptz,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  UNIQUE (provider, provider_dispute_id)
);
CREATE INDEX commerce_disputes_org_idx ON commerce_disputes (org_id, id);

-- Provider events already handled (a redelivered webhook changes nothing twice).
CREATE TABLE commerce_provider_events (
  provider     text NOT NULL,
  event_id     text NOT NULL,
  received_at  timestamptz NOT NULL,
  PRIMARY KEY (provider, event_id)
);

CREATE INDEX commerce_payments_reference_idx ON commerce_payments (provider, reference);

CREATE TABLE commerce_payouts (
  id             bigserial PRIMARY KEY,
  org_id         bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  amount_minor   bigint NOT NULL CHECK (amount_minor > 0),
  currency_code  text NOT NULL,
  status         text NOT NULL,
  period_start   timestamptz NOT NULL,
  period_end     timestamptz NOT NULL,
  requested_by   bigint NOT NULL,
  created_at     timestamptz NOT NULL
);
CREATE INDEX commerce_payouts_org_idx ON commerce_payouts (org_id, id);

-- One row per shop and currency, locked while a payout checks the available balance.
CREATE TABLE commerce_balance_locks (
  org_id         bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  currency_code  text NOT NULL,
  PRIMARY KEY (org_id, currency_code)
);

-- The owners' identities: read and written only by signed-in owners and admins, never by a key.
CREATE TABLE commerce_merchant_profiles (
  org_id          bigint PRIMARY KEY REFERENCES orgs (id) ON DELETE CASCADE,
  profile         jsonb NOT NULL,
  updated_by      bigint NOT NULL,
  updated_at      timestamptz NOT NULL
);
