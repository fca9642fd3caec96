-- Promotions: the list's table (migrations/202611230007_commerce_lists.sql) gains what a discount
-- needs. `kind` `percentage` (`value` is the percent: 10.00 is 10 %) or `fixed` (`amounts`, minor
-- units per currency: {"EUR": 500}); applying to the order or to the items of `product_ids` /
-- `collection_ids`; a window, a usage limit counted in `used`, a limit per customer (by e-mail),
-- minimum subtotals per currency, and automatic promotions applied without their code.
ALTER TABLE commerce_promotions
  ADD COLUMN amounts             jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN applies_to          text NOT NULL DEFAULT 'order' CHECK (applies_to IN ('order', 'items')),
  ADD COLUMN product_ids         jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN collection_ids      jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN starts_at           timestamptz,
  ADD COLUMN ends_at             timestamptz,
  ADD COLUMN usage_limit         integer CHECK (usage_limit IS NULL OR usage_limit >= 0),
  ADD COLUMN used                integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  ADD COLUMN per_customer_limit  integer CHECK (per_customer_limit IS NULL OR per_customer_limit >= 1),
  ADD COLUMN min_subtotals       jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN is_automatic        boolean NOT NULL DEFAULT false,
  ADD COLUMN updated_at          timestamptz NOT NULL DEFAULT now();

-- A code is matched in any case: one promotion per code and organization, whatever its case.
CREATE UNIQUE INDEX commerce_promotions_org_code_idx ON commerce_promotions (org_id, lower(code));
CREATE INDEX commerce_promotions_automatic_idx ON commerce_promotions (org_id) WHERE is_automatic;

-- The codes a shopper applied to a cart (automatic promotions are not stored: they apply by themselves).
CREATE TABLE commerce_cart_promotions (
  cart_id       bigint NOT NULL REFERENCES commerce_carts (id) ON DELETE CASCADE,
  promotion_id  bigint NOT NULL REFERENCES commerce_promotions (id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cart_id, promotion_id)
);

-- The promotions an order used, with the discount each gave; the code and e-mail are kept should
-- the promotion be deleted (the per-customer limit counts these rows by e-mail).
CREATE TABLE commerce_order_promotions (
  id            bigserial PRIMARY KEY,
  org_id        bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id      bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  promotion_id  bigint REFERENCES commerce_promotions (id) ON DELETE SET NULL,
  code          text NOT NULL,
  email         text NOT NULL,
  amount_minor  bigint NOT NULL CHECK (amount_minor >= 0),
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_order_promotions_order_idx ON commerce_order_promotions (order_id);
CREATE INDEX commerce_order_promotions_email_idx ON commerce_order_promotions (promotion_id, email);
