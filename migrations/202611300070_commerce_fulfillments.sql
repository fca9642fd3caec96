-- Fulfilments of placed orders and the cancel of an order (docs/commerce.md, "Fulfilment and cancel").
-- A fulfilment takes quantities of an order's items through created → dispatched → shipped →
-- delivered (or canceled before it ships); shipping turns the items' stock reservations into a
-- shipment (stocked and reserved quantities both go down).

CREATE TABLE commerce_fulfillments (
  id               bigserial PRIMARY KEY,
  org_id           bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id         bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  location_id      bigint REFERENCES commerce_stock_locations (id) ON DELETE SET NULL,
  status           text NOT NULL DEFAULT 'created',
  tracking_number  text,
  tracking_url     text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  dispatched_at    timestamptz,
  shipped_at       timestamptz,
  delivered_at     timestamptz,
  canceled_at      timestamptz
);
CREATE INDEX commerce_fulfillments_order_idx ON commerce_fulfillments (order_id, id);

CREATE TABLE commerce_fulfillment_items (
  fulfillment_id  bigint NOT NULL REFERENCES commerce_fulfillments (id) ON DELETE CASCADE,
  order_item_id   bigint NOT NULL REFERENCES commerce_order_items (id) ON DELETE CASCADE,
  quantity        integer NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (fulfillment_id, order_item_id)
);

-- When an order was canceled (null while it is not).
ALTER TABLE commerce_orders ADD COLUMN canceled_at timestamptz;
