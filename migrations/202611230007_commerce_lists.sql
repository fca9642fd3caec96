-- The Commerce API's lists (created empty; the Commerce issue writes them). Money is numeric.
CREATE TABLE commerce_orders (
  id            bigserial PRIMARY KEY,
  org_id        bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_number  text NOT NULL,
  email         text,
  customer_id   bigint,
  status        text NOT NULL,
  currency      text NOT NULL,
  total         numeric(14, 2) NOT NULL,
  placed_at     timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_orders_org_placed_idx ON commerce_orders (org_id, placed_at DESC, id DESC);

CREATE TABLE commerce_products (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  title       text NOT NULL,
  handle      text NOT NULL,
  status      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_products_org_updated_idx ON commerce_products (org_id, updated_at DESC, id DESC);

CREATE TABLE commerce_events (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  name        text NOT NULL,
  data        jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_events_org_idx ON commerce_events (org_id, id DESC);

CREATE TABLE commerce_promotions (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  code        text NOT NULL,
  kind        text NOT NULL,
  value       numeric(14, 2) NOT NULL,
  status      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_promotions_org_idx ON commerce_promotions (org_id, id DESC);

CREATE TABLE commerce_gift_cards (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  code_last4  text NOT NULL,
  balance     numeric(14, 2) NOT NULL,
  currency    text NOT NULL,
  status      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_gift_cards_org_idx ON commerce_gift_cards (org_id, id DESC);
