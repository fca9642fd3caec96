-- The Store API's products list: a shop's published products, newest first (or oldest, or by
-- title), a page at a time. These indexes give each order its rows without sorting the shop.
CREATE INDEX commerce_products_org_status_created_idx
  ON commerce_products (org_id, status, created_at, id);
CREATE INDEX commerce_products_org_status_title_idx
  ON commerce_products (org_id, status, title, id);
