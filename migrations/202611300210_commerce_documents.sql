-- Order documents (docs/commerce.md, "Order documents"): the invoice of a placed order and a credit
-- note for each of its refunds, issued in the transaction of the order or the refund and never
-- changed afterwards. A document is its JSON snapshot (seller, buyer, lines, totals, in minor
-- units); its PDF is rendered from that snapshot alone.

-- The last number given per seller, kind and year: `platform` (the platform as merchant of record,
-- one sequence across every shop it sells for) or `org:<id>` (an organization selling itself).
-- Incremented under its row lock inside the issuing transaction, so a rolled back order or refund
-- leaves no gap and two concurrent ones never share a number.
CREATE TABLE commerce_document_counters (
  seller_key   text NOT NULL,
  kind         text NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
  year         integer NOT NULL,
  last_number  integer NOT NULL,
  PRIMARY KEY (seller_key, kind, year)
);

CREATE TABLE commerce_order_documents (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  order_id    bigint NOT NULL REFERENCES commerce_orders (id) ON DELETE CASCADE,
  kind        text NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
  -- The refund a credit note pays back; null for the invoice.
  refund_id   bigint REFERENCES commerce_refunds (id) ON DELETE CASCADE,
  seller_key  text NOT NULL,
  -- `INV-2026-000123`, `CN-2026-000045`: unique per seller.
  number      text NOT NULL,
  issued_at   timestamptz NOT NULL,
  snapshot    jsonb NOT NULL,
  UNIQUE (seller_key, number)
);
CREATE INDEX commerce_order_documents_order_idx ON commerce_order_documents (order_id, id);
-- One invoice per order, one credit note per refund.
CREATE UNIQUE INDEX commerce_order_documents_invoice_idx ON commerce_order_documents (order_id)
  WHERE kind = 'invoice';
CREATE UNIQUE INDEX commerce_order_documents_refund_idx ON commerce_order_documents (refund_id)
  WHERE refund_id IS NOT NULL;

-- Who invoices a `hybrid` organization's shoppers: `organization` (default) or `platform`.
ALTER TABLE commerce_store_settings
  ADD COLUMN seller_of_record text NOT NULL DEFAULT 'organization'
  CHECK (seller_of_record IN ('organization', 'platform'));
