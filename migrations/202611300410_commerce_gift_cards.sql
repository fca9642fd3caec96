-- Gift cards (docs/commerce.md, "Gift cards"): issued by the shop or bought as a product, spent at
-- a cart's completion as a payment, given back by a refund. The code is a secret of its holder: it
-- is stored as a keyed hash (HMAC under a key derived from the sealing key) and its last four
-- characters; the list's `balance` (major units, kept from before) follows `balance_minor`.

ALTER TABLE commerce_gift_cards
  ADD COLUMN code_hash      text,
  ADD COLUMN value_minor    bigint NOT NULL DEFAULT 0,
  ADD COLUMN balance_minor  bigint NOT NULL DEFAULT 0 CHECK (balance_minor >= 0),
  ADD COLUMN expires_at     timestamptz,
  ADD COLUMN note           text,
  -- The order that bought it, when bought as a product.
  ADD COLUMN order_id       bigint REFERENCES commerce_orders (id) ON DELETE SET NULL,
  ADD COLUMN updated_at     timestamptz NOT NULL DEFAULT now();

-- Cards from before carry their balance in major units only.
UPDATE commerce_gift_cards
   SET balance_minor = round(balance * CASE
         WHEN currency IN ('BIF','CLP','DJF','GNF','ISK','JPY','KMF','KRW','PYG','RWF','UGX','UYI','VND',
                           'VUV','XAF','XOF','XPF') THEN 1
         WHEN currency IN ('BHD','IQD','JOD','KWD','LYD','OMR','TND') THEN 1000
         ELSE 100 END),
       value_minor = round(balance * CASE
         WHEN currency IN ('BIF','CLP','DJF','GNF','ISK','JPY','KMF','KRW','PYG','RWF','UGX','UYI','VND',
                           'VUV','XAF','XOF','XPF') THEN 1
         WHEN currency IN ('BHD','IQD','JOD','KWD','LYD','OMR','TND') THEN 1000
         ELSE 100 END);

CREATE UNIQUE INDEX commerce_gift_cards_code_idx ON commerce_gift_cards (org_id, code_hash)
  WHERE code_hash IS NOT NULL;

-- Every change of a balance, signed, in minor units: issue, adjustment, spending at completion,
-- restoring by a refund. The card's balance_minor is their sum, moved in the same transaction.
CREATE TABLE commerce_gift_card_transactions (
  id            bigserial PRIMARY KEY,
  org_id        bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  gift_card_id  bigint NOT NULL REFERENCES commerce_gift_cards (id) ON DELETE CASCADE,
  -- issued | adjusted | spent | restored
  kind          text NOT NULL,
  amount_minor  bigint NOT NULL,
  balance_after_minor bigint NOT NULL CHECK (balance_after_minor >= 0),
  order_id      bigint REFERENCES commerce_orders (id) ON DELETE SET NULL,
  refund_id     bigint REFERENCES commerce_refunds (id) ON DELETE SET NULL,
  note          text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commerce_gift_card_transactions_card_idx ON commerce_gift_card_transactions (gift_card_id, id);

-- The gift cards a shopper applied to an open cart, in the order applied (the first covers first).
CREATE TABLE commerce_cart_gift_cards (
  cart_id       bigint NOT NULL REFERENCES commerce_carts (id) ON DELETE CASCADE,
  gift_card_id  bigint NOT NULL REFERENCES commerce_gift_cards (id) ON DELETE CASCADE,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (cart_id, gift_card_id)
);
CREATE INDEX commerce_cart_gift_cards_card_idx ON commerce_cart_gift_cards (gift_card_id);

-- A product whose variants sell gift cards: completing a cart issues one per unit, of the unit's price.
ALTER TABLE commerce_products ADD COLUMN is_gift_card boolean NOT NULL DEFAULT false;
