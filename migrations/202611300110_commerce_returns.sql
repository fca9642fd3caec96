-- Returns of placed orders and their reasons (docs/commerce.md, "Returns and refunds"). A return
-- asks for units of an order's shipped items to come back: `requested` → `approved` → `received`
-- → `refunded`, or `rejected` / `canceled` from requested or approved.

CREATE TABLE commerce_return_reasons (
  id           bigserial PRIMARY KEY,
  org_id       bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  -- A short code the shop's tools match on (`damaged`), unique in the shop.
  value        text NOT NULL,
  label        text NOT NULL,
  description  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, value)
);

CREATE TABLE commerce_returns (
  id                  bigserial PRIMARY KEY,
  org_id              bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id            bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  status              text NOT NULL CHECK (status IN
                        ('requested', 'approved', 'received', 'refunded', 'rejected', 'canceled')),
  -- A reason in use cannot be deleted (409).
  reason_id           bigint REFERENCES commerce_return_reasons (id),
  note                text,
  -- The `is_return` shipping option the parcel comes back with, when the shop has one.
  shipping_option_id  bigint REFERENCES commerce_shipping_options (id) ON DELETE SET NULL,
  -- Who asked: `shopper` (Store API) or `merchant` (Commerce API).
  requested_by        text NOT NULL,
  rejection_reason    text,
  -- Where received units went back on the shelf; null: not restocked.
  location_id         bigint REFERENCES commerce_stock_locations (id) ON DELETE SET NULL,
  refund_id           bigint REFERENCES commerce_refunds (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  approved_at         timestamptz,
  rejected_at         timestamptz,
  received_at         timestamptz,
  refunded_at         timestamptz,
  canceled_at         timestamptz,
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_returns_order_idx ON commerce_returns (order_id, id);
CREATE INDEX commerce_returns_org_idx ON commerce_returns (org_id, id);

CREATE TABLE commerce_return_items (
  return_id          bigint NOT NULL REFERENCES commerce_returns (id) ON DELETE CASCADE,
  order_item_id      bigint NOT NULL REFERENCES commerce_order_items (id) ON DELETE CASCADE,
  quantity           integer NOT NULL CHECK (quantity > 0),
  -- What came back, set when the return is received (never more than asked).
  received_quantity  integer CHECK (received_quantity >= 0 AND received_quantity <= quantity),
  PRIMARY KEY (return_id, order_item_id)
);

ALTER TABLE commerce_refunds
  ADD CONSTRAINT commerce_refunds_return_fk FOREIGN KEY (return_id) REFERENCES commerce_returns (id)
  ON DELETE SET NULL;
