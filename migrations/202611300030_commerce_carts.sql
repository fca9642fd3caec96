-- The Store API's carts: a shopper's cart in the mode and sales channel of the publishable key that
-- made it, in one region and its currency, with its line items (priced in minor units of that
-- currency when added or re-priced) and at most one shipping method per shipping profile.

CREATE TABLE commerce_carts (
  id                bigserial PRIMARY KEY,
  org_id            bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  sales_channel_id  bigint NOT NULL REFERENCES commerce_sales_channels (id) ON DELETE CASCADE,
  mode              text NOT NULL CHECK (mode IN ('test', 'live')),
  region_id         bigint REFERENCES commerce_regions (id) ON DELETE SET NULL,
  currency_code     text NOT NULL,
  email             text,
  shipping_address  jsonb,
  billing_address   jsonb,
  country_code      text,
  locale            text,
  note              text,
  metadata          jsonb NOT NULL DEFAULT '{}',
  completed_at      timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_carts_org_idx ON commerce_carts (org_id, id);

-- A line keeps what it was sold as (titles, SKU, unit price) should its variant change or go.
CREATE TABLE commerce_cart_line_items (
  id                   bigserial PRIMARY KEY,
  cart_id              bigint NOT NULL REFERENCES commerce_carts (id) ON DELETE CASCADE,
  variant_id           bigint REFERENCES commerce_product_variants (id) ON DELETE SET NULL,
  product_id           bigint REFERENCES commerce_products (id) ON DELETE SET NULL,
  title                text NOT NULL,
  variant_title        text NOT NULL,
  sku                  text,
  quantity             integer NOT NULL CHECK (quantity >= 1),
  unit_price           bigint NOT NULL CHECK (unit_price >= 0),
  metadata             jsonb NOT NULL DEFAULT '{}',
  shipping_profile_id  bigint,
  requires_shipping    boolean NOT NULL DEFAULT true,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_cart_line_items_cart_idx ON commerce_cart_line_items (cart_id, id);

-- One method per shipping profile of a cart: choosing another option of the profile replaces it.
CREATE TABLE commerce_cart_shipping_methods (
  id                   bigserial PRIMARY KEY,
  cart_id              bigint NOT NULL REFERENCES commerce_carts (id) ON DELETE CASCADE,
  shipping_option_id   bigint REFERENCES commerce_shipping_options (id) ON DELETE SET NULL,
  shipping_profile_id  bigint NOT NULL,
  name                 text NOT NULL,
  amount               bigint NOT NULL CHECK (amount >= 0),
  created_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (cart_id, shipping_profile_id)
);
