-- A mail webhook shows why its latest attempt failed, and when (as organization webhooks do).
ALTER TABLE mail_webhooks ADD COLUMN last_error text;
ALTER TABLE mail_webhooks ADD COLUMN last_error_at timestamptz;
