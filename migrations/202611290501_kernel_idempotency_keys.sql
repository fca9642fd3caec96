-- Replies kept for retried requests carrying an Idempotency-Key (orders, payments, top-ups): the
-- same key and the same request answer the first reply; the same key with another request is 409.
-- A row without a reply is a request still running (or one that failed and was released).
CREATE TABLE idempotency_keys (
  user_id          bigint NOT NULL,
  route            text NOT NULL,
  key              text NOT NULL,
  -- SHA-256 of the route's parameters and body, as the first request sent them.
  request_hash     text NOT NULL,
  response_status  integer,
  response_body    jsonb,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, route, key)
);
