-- An organization webhook shows why its latest attempt failed (the delivery's error: `HTTP 500`,
-- `forbidden_address: …`, `timeout: …`) and when, so the reason is not only in the server log.
ALTER TABLE webhooks ADD COLUMN last_error text;
ALTER TABLE webhooks ADD COLUMN last_error_at timestamptz;
