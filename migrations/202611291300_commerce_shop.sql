-- The shop behind the Commerce API's administration routes: store settings, sales channels and
-- their publishable keys, regions, the catalogue (products with options, variants and prices per
-- currency, collections, a category tree), shipping profiles and options, stock locations and
-- inventory levels per SKU, order notes. Money is an integer of the currency's minor unit
-- (ISO 4217: EUR 12.34 is 1234, JPY 1200 is 1200). Every row belongs to one organization.

CREATE TABLE commerce_store_settings (
  org_id                 bigint PRIMARY KEY REFERENCES orgs (id) ON DELETE CASCADE,
  name                   text,
  default_currency_code  text NOT NULL DEFAULT 'EUR',
  support_email          text,
  updated_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE commerce_sales_channels (
  id           bigserial PRIMARY KEY,
  org_id       bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  name         text NOT NULL,
  description  text,
  is_disabled  boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_sales_channels_org_idx ON commerce_sales_channels (org_id, id);

-- A publishable key: `lookup` (its first characters, an index) and the SHA-256 of the whole key.
CREATE TABLE commerce_publishable_keys (
  id                bigserial PRIMARY KEY,
  org_id            bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  sales_channel_id  bigint NOT NULL REFERENCES commerce_sales_channels (id) ON DELETE RESTRICT,
  mode              text NOT NULL CHECK (mode IN ('test', 'live')),
  label             text,
  lookup            text NOT NULL UNIQUE,
  key_hash          text NOT NULL,
  revoked_at        timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_publishable_keys_org_idx ON commerce_publishable_keys (org_id, id);

CREATE TABLE commerce_regions (
  id                 bigserial PRIMARY KEY,
  org_id             bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  name               text NOT NULL,
  currency_code      text NOT NULL,
  tax_rate           numeric(7, 4) NOT NULL DEFAULT 0,
  tax_inclusive      boolean NOT NULL DEFAULT false,
  payment_providers  jsonb NOT NULL DEFAULT '[]',
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_regions_org_idx ON commerce_regions (org_id, id);

-- A country belongs to at most one region of a shop: a cart's country picks its region.
CREATE TABLE commerce_region_countries (
  org_id        bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  country_code  text NOT NULL,
  region_id     bigint NOT NULL REFERENCES commerce_regions (id) ON DELETE CASCADE,
  PRIMARY KEY (org_id, country_code)
);
CREATE INDEX commerce_region_countries_region_idx ON commerce_region_countries (region_id);

CREATE TABLE commerce_product_collections (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  title       text NOT NULL,
  handle      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, handle)
);

CREATE TABLE commerce_product_categories (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  name        text NOT NULL,
  handle      text NOT NULL,
  parent_id   bigint REFERENCES commerce_product_categories (id) ON DELETE RESTRICT,
  is_active   boolean NOT NULL DEFAULT true,
  is_public   boolean NOT NULL DEFAULT true,
  rank        integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, handle)
);

CREATE TABLE commerce_shipping_profiles (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  name        text NOT NULL,
  type        text NOT NULL DEFAULT 'default',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_shipping_profiles_org_idx ON commerce_shipping_profiles (org_id, id);

-- Products gain what a shop needs; the list columns (title, handle, status) stay.
ALTER TABLE commerce_products
  ADD COLUMN subtitle             text,
  ADD COLUMN description          text,
  ADD COLUMN images               jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN options              jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN weight               integer,
  ADD COLUMN collection_id        bigint REFERENCES commerce_product_collections (id) ON DELETE SET NULL,
  ADD COLUMN shipping_profile_id  bigint REFERENCES commerce_shipping_profiles (id) ON DELETE SET NULL;
CREATE UNIQUE INDEX commerce_products_org_handle_idx ON commerce_products (org_id, handle);

CREATE TABLE commerce_product_category_links (
  product_id   bigint NOT NULL REFERENCES commerce_products (id) ON DELETE CASCADE,
  category_id  bigint NOT NULL REFERENCES commerce_product_categories (id) ON DELETE CASCADE,
  PRIMARY KEY (product_id, category_id)
);
CREATE INDEX commerce_product_category_links_category_idx ON commerce_product_category_links (category_id);

CREATE TABLE commerce_product_sales_channels (
  product_id        bigint NOT NULL REFERENCES commerce_products (id) ON DELETE CASCADE,
  sales_channel_id  bigint NOT NULL REFERENCES commerce_sales_channels (id) ON DELETE CASCADE,
  PRIMARY KEY (product_id, sales_channel_id)
);
CREATE INDEX commerce_product_sales_channels_channel_idx ON commerce_product_sales_channels (sales_channel_id);

-- A variant: one combination of its product's option values; its SKU is unique in the shop and
-- names its inventory (levels per stock location, below).
CREATE TABLE commerce_product_variants (
  id                 bigserial PRIMARY KEY,
  org_id             bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  product_id         bigint NOT NULL REFERENCES commerce_products (id) ON DELETE CASCADE,
  title              text NOT NULL,
  sku                text,
  options            jsonb NOT NULL DEFAULT '{}',
  manage_inventory   boolean NOT NULL DEFAULT true,
  allow_backorder    boolean NOT NULL DEFAULT false,
  weight             integer,
  rank               integer NOT NULL DEFAULT 0,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX commerce_product_variants_org_sku_idx ON commerce_product_variants (org_id, sku);
CREATE INDEX commerce_product_variants_product_idx ON commerce_product_variants (product_id, rank, id);

CREATE TABLE commerce_variant_prices (
  variant_id     bigint NOT NULL REFERENCES commerce_product_variants (id) ON DELETE CASCADE,
  currency_code  text NOT NULL,
  amount         bigint NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (variant_id, currency_code)
);

-- A shipping option of a region: a flat price, or by the cart's weight (brackets in `weight_rates`),
-- offered when the cart's subtotal lies in [min_subtotal, max_subtotal]; is_return for returns.
CREATE TABLE commerce_shipping_options (
  id                   bigserial PRIMARY KEY,
  org_id               bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  region_id            bigint NOT NULL REFERENCES commerce_regions (id) ON DELETE CASCADE,
  shipping_profile_id  bigint NOT NULL REFERENCES commerce_shipping_profiles (id) ON DELETE RESTRICT,
  name                 text NOT NULL,
  price_type           text NOT NULL CHECK (price_type IN ('flat', 'weight')),
  amount               bigint,
  weight_rates         jsonb NOT NULL DEFAULT '[]',
  min_subtotal         bigint,
  max_subtotal         bigint,
  is_return            boolean NOT NULL DEFAULT false,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_shipping_options_org_idx ON commerce_shipping_options (org_id, region_id, id);

CREATE TABLE commerce_stock_locations (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  name        text NOT NULL,
  address     jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_stock_locations_org_idx ON commerce_stock_locations (org_id, id);

CREATE TABLE commerce_stock_location_channels (
  stock_location_id  bigint NOT NULL REFERENCES commerce_stock_locations (id) ON DELETE CASCADE,
  sales_channel_id   bigint NOT NULL REFERENCES commerce_sales_channels (id) ON DELETE CASCADE,
  PRIMARY KEY (stock_location_id, sales_channel_id)
);
CREATE INDEX commerce_stock_location_channels_channel_idx ON commerce_stock_location_channels (sales_channel_id);

-- Stock of one SKU at one location. `reserved_quantity` is held by placed orders not yet shipped
-- (completion reserves in the same transaction that places the order); available = stocked − reserved.
CREATE TABLE commerce_inventory_levels (
  org_id             bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  sku                text NOT NULL,
  stock_location_id  bigint NOT NULL REFERENCES commerce_stock_locations (id) ON DELETE CASCADE,
  stocked_quantity   integer NOT NULL CHECK (stocked_quantity >= 0),
  reserved_quantity  integer NOT NULL DEFAULT 0 CHECK (reserved_quantity >= 0),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, sku, stock_location_id),
  CHECK (reserved_quantity <= stocked_quantity)
);
CREATE INDEX commerce_inventory_levels_location_idx ON commerce_inventory_levels (stock_location_id);

-- Orders gain what their edits and the carts to come need; the list columns stay.
ALTER TABLE commerce_orders
  ADD COLUMN region_id         bigint REFERENCES commerce_regions (id) ON DELETE SET NULL,
  ADD COLUMN sales_channel_id  bigint REFERENCES commerce_sales_channels (id) ON DELETE SET NULL,
  ADD COLUMN metadata          jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN updated_at        timestamptz NOT NULL DEFAULT now();

CREATE TABLE commerce_order_notes (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id    bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  body        text NOT NULL,
  author      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_order_notes_order_idx ON commerce_order_notes (order_id, id);
