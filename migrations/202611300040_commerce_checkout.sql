-- Checkout: orders placed by the Store API from carts, their items, the inventory they reserve, the
-- payments behind them, the payment sessions of carts, and the completions that make them safe to
-- retry (docs/commerce.md, "Checkout"). Money in integer minor units of the order's currency.

ALTER TABLE commerce_orders
  ADD COLUMN display_id            integer,
  ADD COLUMN mode                  text NOT NULL DEFAULT 'live',
  ADD COLUMN cart_id               bigint,
  ADD COLUMN shipping_address      jsonb,
  ADD COLUMN billing_address       jsonb,
  ADD COLUMN subtotal_minor        bigint NOT NULL DEFAULT 0,
  ADD COLUMN shipping_total_minor  bigint NOT NULL DEFAULT 0,
  ADD COLUMN tax_total_minor       bigint NOT NULL DEFAULT 0,
  ADD COLUMN discount_total_minor  bigint NOT NULL DEFAULT 0,
  ADD COLUMN total_minor           bigint NOT NULL DEFAULT 0,
  ADD COLUMN payment_status        text NOT NULL DEFAULT 'not_paid',
  ADD COLUMN fulfillment_status    text NOT NULL DEFAULT 'not_fulfilled';
-- One order per cart; display ids count per organization.
CREATE UNIQUE INDEX commerce_orders_cart_idx ON commerce_orders (cart_id) WHERE cart_id IS NOT NULL;
CREATE UNIQUE INDEX commerce_orders_display_idx ON commerce_orders (org_id, display_id) WHERE display_id IS NOT NULL;

-- The last display id given per organization (an order's number for its shopper: 1, 2, 3, ...).
CREATE TABLE commerce_order_counters (
  org_id           bigint PRIMARY KEY REFERENCES orgs (id) ON DELETE CASCADE,
  last_display_id  integer NOT NULL DEFAULT 0
);

CREATE TABLE commerce_order_items (
  id                bigserial PRIMARY KEY,
  org_id            bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id          bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  variant_id        bigint,
  product_id        bigint,
  title             text NOT NULL,
  sku               text,
  quantity          integer NOT NULL CHECK (quantity > 0),
  unit_price_minor  bigint NOT NULL,
  subtotal_minor    bigint NOT NULL,
  tax_minor         bigint NOT NULL DEFAULT 0,
  requires_shipping boolean NOT NULL DEFAULT true,
  metadata          jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX commerce_order_items_order_idx ON commerce_order_items (order_id, id);

-- Stock held for an order's item at a location: taken from a level's available quantity at
-- completion (reserved_quantity), released by a cancel, turned into a shipment by fulfilment.
CREATE TABLE commerce_inventory_reservations (
  id                 bigserial PRIMARY KEY,
  org_id             bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_item_id      bigint NOT NULL REFERENCES commerce_order_items (id) ON DELETE CASCADE,
  sku                text NOT NULL,
  stock_location_id  bigint NOT NULL REFERENCES commerce_stock_locations (id) ON DELETE CASCADE,
  quantity           integer NOT NULL CHECK (quantity > 0),
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_inventory_reservations_item_idx ON commerce_inventory_reservations (order_item_id);

-- A cart's payment at its provider: started by a payment session, captured at completion.
CREATE TABLE commerce_payment_sessions (
  id            bigserial PRIMARY KEY,
  org_id        bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  cart_id       bigint NOT NULL,
  provider      text NOT NULL,
  reference     text NOT NULL,
  amount_minor  bigint NOT NULL,
  currency_code text NOT NULL,
  status        text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
-- At most one live session per cart and provider (a stale one is canceled and dropped).
CREATE UNIQUE INDEX commerce_payment_sessions_cart_idx ON commerce_payment_sessions (cart_id, provider);

-- An order's payment: what was captured and, later, refunded (never more than captured).
CREATE TABLE commerce_payments (
  id              bigserial PRIMARY KEY,
  org_id          bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id        bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  provider        text NOT NULL,
  reference       text NOT NULL,
  currency_code   text NOT NULL,
  amount_minor    bigint NOT NULL,
  captured_minor  bigint NOT NULL DEFAULT 0,
  refunded_minor  bigint NOT NULL DEFAULT 0,
  status          text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_payments_order_idx ON commerce_payments (order_id);

-- A cart's completion attempts by Idempotency-Key: the same key and cart answer the same order,
-- the same key with another body is refused, and one completion runs at a time per cart.
CREATE TABLE commerce_cart_completions (
  org_id           bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  idempotency_key  text NOT NULL,
  cart_id          bigint NOT NULL,
  request_hash     text NOT NULL,
  order_id         bigint REFERENCES commerce_orders (id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, idempotency_key)
);

-- A completion running for a cart: a second one meanwhile is refused (409), one left by a crashed
-- process is taken over after a while (cart-completion.ts).
CREATE TABLE commerce_cart_locks (
  cart_id     bigint PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  started_at  timestamptz NOT NULL
);
