-- The outbox: a domain event meant for the outside world (webhooks), written in the same
-- transaction as the change it announces, so it exists exactly when the change does. A
-- dispatcher turns each into deliveries and marks it dispatched; nothing is deleted.
CREATE TABLE events (
  id             bigserial PRIMARY KEY,
  org_id         bigint,
  name           text NOT NULL,
  payload        jsonb NOT NULL,
  occurred_at    timestamptz NOT NULL,
  dispatched_at  timestamptz
);
CREATE INDEX events_undispatched_idx ON events (id) WHERE dispatched_at IS NULL;
