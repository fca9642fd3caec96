-- Refunds of placed orders (docs/commerce.md, "Returns and refunds"). A refund gives back part or
-- all of what an order's payments captured; each of its allocations says how much of it went back
-- through which payment (a card at its provider, a gift card's balance), so money is never given
-- back twice and the sum refunded never exceeds what was captured.

CREATE TABLE commerce_refunds (
  id             bigserial PRIMARY KEY,
  org_id         bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id       bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  -- The return it pays back, when it pays one back (returns are in their own migration).
  return_id      bigint,
  amount_minor   bigint NOT NULL CHECK (amount_minor > 0),
  currency_code  text NOT NULL,
  -- Why: `return`, `cancel`, or the merchant's words.
  reason         text NOT NULL,
  note           text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_refunds_order_idx ON commerce_refunds (order_id, id);

CREATE TABLE commerce_refund_allocations (
  refund_id     bigint NOT NULL REFERENCES commerce_refunds (id) ON DELETE CASCADE,
  payment_id    bigint NOT NULL REFERENCES commerce_payments (id) ON DELETE CASCADE,
  provider      text NOT NULL,
  amount_minor  bigint NOT NULL CHECK (amount_minor > 0),
  -- The provider's refund (a Stripe `re_...`), null for what is given back in the shop itself.
  provider_reference text,
  PRIMARY KEY (refund_id, payment_id)
);

-- The lines a refund pays back (a return's items), for its credit note; none for an amount alone.
CREATE TABLE commerce_refund_lines (
  refund_id      bigint NOT NULL REFERENCES commerce_refunds (id) ON DELETE CASCADE,
  order_item_id  bigint NOT NULL REFERENCES commerce_order_items (id) ON DELETE CASCADE,
  quantity       integer NOT NULL CHECK (quantity > 0),
  amount_minor   bigint NOT NULL CHECK (amount_minor >= 0),
  PRIMARY KEY (refund_id, order_item_id)
);
