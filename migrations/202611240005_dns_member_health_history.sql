-- Health quorum across PoPs, flap damping and health history. Every probe is kept with
-- the PoP that ran it (7 days); a member's health_status is the damped decision over the latest
-- probe of each PoP, and every change of that decision is kept with its reason (7 days).
ALTER TABLE dns_lb_members
  -- Decisions in a row that disagreed with health_status (flap damping: HEALTH_FALL/HEALTH_RISE).
  ADD COLUMN health_streak integer NOT NULL DEFAULT 0,
  -- When the health last started over (new address or health mode): older probes do not count.
  ADD COLUMN health_reset_at timestamptz;

CREATE TABLE dns_lb_member_probes (
  id          bigserial PRIMARY KEY,
  member_id   bigint NOT NULL REFERENCES dns_lb_members (id) ON DELETE CASCADE,
  pop         text NOT NULL,
  at          timestamptz NOT NULL,
  status      text NOT NULL CHECK (status IN ('healthy', 'unhealthy')),
  latency_ms  integer,
  error       text
);
CREATE INDEX dns_lb_member_probes_member_idx ON dns_lb_member_probes (member_id, at DESC);
CREATE INDEX dns_lb_member_probes_at_idx ON dns_lb_member_probes (at);

CREATE TABLE dns_lb_member_health_changes (
  id          bigserial PRIMARY KEY,
  member_id   bigint NOT NULL REFERENCES dns_lb_members (id) ON DELETE CASCADE,
  at          timestamptz NOT NULL,
  from_status text NOT NULL,
  to_status   text NOT NULL,
  reason      text NOT NULL
);
CREATE INDEX dns_lb_member_health_changes_member_idx ON dns_lb_member_health_changes (member_id, at DESC);
CREATE INDEX dns_lb_member_health_changes_at_idx ON dns_lb_member_health_changes (at);
