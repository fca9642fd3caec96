-- The audit log the kernel writes for every state-changing call of every module: who (user and
-- realm), what (action <module>.<resource>.<verb>, resource), where from (ip), in which
-- organization. It holds no secret: only names and ids.
CREATE TABLE audit_log (
  id             bigserial PRIMARY KEY,
  org_id         bigint,
  actor_user_id  bigint,
  actor_realm    text NOT NULL,
  action         text NOT NULL,
  resource_type  text NOT NULL,
  resource_id    text,
  ip             text,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_org_idx ON audit_log (org_id, id DESC);
