-- Organization webhooks and the deliveries of the one delivery engine (organization webhooks
-- and, with the mail issue, mail webhooks). The signing secret is sealed; no route returns it.
CREATE TABLE webhooks (
  id                 bigserial PRIMARY KEY,
  org_id             bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  url                text NOT NULL,
  events             jsonb NOT NULL,
  secret             bytea NOT NULL,
  is_active          boolean NOT NULL DEFAULT true,
  failure_count      integer NOT NULL DEFAULT 0,
  last_triggered_at  timestamptz,
  created_at         timestamptz NOT NULL,
  deleted_at         timestamptz
);
CREATE INDEX webhooks_org_idx ON webhooks (org_id) WHERE deleted_at IS NULL;

-- One delivery: an event (its body fixed at creation) to one target, attempt by attempt.
-- status: pending (an attempt is due at next_attempt_at), delivered, gave_up (the policy's last
-- attempt failed), stopped (the target was disabled or deleted). locked_until: a process is
-- sending the current attempt (claimed_by names the claim); past it, the attempt is due again
-- (that process died), and only the newest claim may record the attempt's outcome.
CREATE TABLE webhooks_deliveries (
  id               bigserial PRIMARY KEY,
  target_kind      text NOT NULL,
  target_id        bigint NOT NULL,
  policy           text NOT NULL,
  event_id         bigint NOT NULL,
  event_name       text NOT NULL,
  body             text NOT NULL,
  attempts         integer NOT NULL DEFAULT 0,
  status           text NOT NULL DEFAULT 'pending',
  next_attempt_at  timestamptz NOT NULL,
  locked_until     timestamptz,
  claimed_by       text,
  last_error       text,
  created_at       timestamptz NOT NULL,
  finished_at      timestamptz
);
CREATE INDEX webhooks_deliveries_due_idx ON webhooks_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhooks_deliveries_target_idx ON webhooks_deliveries (target_kind, target_id) WHERE status = 'pending';
