-- The catalogue: hardware tiers, products with their prices and config options, where
-- each product is offered, per-location capacity for the availability answers, VPS OS templates,
-- and the container catalogue (runtimes, specializations with their versions). Filled from the
-- reviewable files in catalog/ at the first start and by `npm run catalog -- import <file>`; ids
-- are the files' own, so a re-import keeps them.
CREATE TABLE catalog_hardware_tiers (
  id          bigint PRIMARY KEY,
  slug        text NOT NULL UNIQUE,
  name        text NOT NULL,
  code        text NOT NULL,
  description text
);

CREATE TABLE catalog_products (
  id               bigint PRIMARY KEY,
  slug             text NOT NULL UNIQUE,
  name             text NOT NULL,
  description      text,
  group_name       text,
  module_name      text NOT NULL,
  hardware_tier_id bigint REFERENCES catalog_hardware_tiers (id),
  status           text NOT NULL,
  config_schema    jsonb,
  sort_order       integer NOT NULL DEFAULT 0,
  stock_limit      integer,
  -- Services holding this product (stock): kept by the services registry.
  stock_used       integer NOT NULL DEFAULT 0,
  metadata         jsonb,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX catalog_products_order_idx ON catalog_products (sort_order, id);

CREATE TABLE catalog_pricing (
  id            bigint PRIMARY KEY,
  product_id    bigint NOT NULL REFERENCES catalog_products (id) ON DELETE CASCADE,
  name          text NOT NULL,
  billing_cycle text NOT NULL,
  -- Decimal strings, never floats (numeric keeps them exact).
  price         numeric(12, 4) NOT NULL,
  setup_fee     numeric(12, 4) NOT NULL DEFAULT 0,
  currency      text NOT NULL,
  is_active     boolean NOT NULL DEFAULT true,
  sort_order    integer NOT NULL DEFAULT 0,
  metadata      jsonb,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX catalog_pricing_product_idx ON catalog_pricing (product_id, sort_order, id);

CREATE TABLE catalog_config_options (
  id             bigint PRIMARY KEY,
  product_id     bigint NOT NULL REFERENCES catalog_products (id) ON DELETE CASCADE,
  field_name     text NOT NULL,
  label          text NOT NULL,
  field_type     text NOT NULL,
  options        jsonb,
  default_value  text,
  required       boolean NOT NULL DEFAULT false,
  price_modifier numeric(12, 4) NOT NULL DEFAULT 0,
  sort_order     integer NOT NULL DEFAULT 0,
  UNIQUE (product_id, field_name)
);

-- Where a product can be ordered (location codes of geo/locations.json); none: not location-bound.
CREATE TABLE catalog_product_locations (
  product_id    bigint NOT NULL REFERENCES catalog_products (id) ON DELETE CASCADE,
  location_code text NOT NULL,
  PRIMARY KEY (product_id, location_code)
);

-- Free capacity per location, module and hardware tier (the availability answers).
CREATE TABLE catalog_location_capacity (
  location_code   text NOT NULL,
  module          text NOT NULL,
  hardware_tier_id bigint NOT NULL REFERENCES catalog_hardware_tiers (id) ON DELETE CASCADE,
  free_memory_mb  bigint NOT NULL,
  free_disk_mb    bigint NOT NULL,
  PRIMARY KEY (location_code, module, hardware_tier_id)
);

CREATE TABLE catalog_os_templates (
  id            bigint PRIMARY KEY,
  slug          text NOT NULL UNIQUE,
  name          text NOT NULL,
  min_memory_mb integer NOT NULL,
  min_disk_gb   integer NOT NULL,
  -- Location codes it is offered at; NULL: everywhere.
  location_codes text[]
);

CREATE TABLE catalog_runtimes (
  uuid         uuid PRIMARY KEY,
  slug         text NOT NULL UNIQUE,
  name         text NOT NULL,
  family       text NOT NULL,
  docker_image text NOT NULL,
  description  text
);

CREATE TABLE catalog_specializations (
  uuid                  uuid PRIMARY KEY,
  slug                  text NOT NULL UNIQUE,
  name                  text NOT NULL,
  description           text,
  runtime_template_slug text,
  category              text,
  version_variable      text,
  version_source_slug   text,
  software_identifier   text,
  runtime_family        text,
  icon_url              text,
  color                 text,
  "group"               text,
  org_id                bigint,
  default_variables     jsonb,
  metadata              jsonb,
  versioned             boolean NOT NULL DEFAULT false,
  deprecated            boolean NOT NULL DEFAULT false,
  adapter_type          text,
  -- The compose answer's versions (newest first) and defaults, as the catalogue file gives them.
  versions              jsonb NOT NULL DEFAULT '[]',
  defaults              jsonb NOT NULL DEFAULT '{}',
  sort_order            integer NOT NULL DEFAULT 0
);
