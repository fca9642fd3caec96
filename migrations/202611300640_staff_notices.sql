-- The staff console's notices (docs/staff-console.md, "Notices"): what an organization tells its
-- customers and staff (a banner, a dashboard card, a status-page entry), and the updates posted on
-- each. The public read shows a notice while it is `active`, or `scheduled` and inside its window.
CREATE TABLE staff_notices (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  -- info, maintenance, incident
  kind        text NOT NULL,
  title       text NOT NULL,
  body        text NOT NULL DEFAULT '',
  -- all, customers, staff
  audience    text NOT NULL,
  -- banner, dashboard, status_page
  placement   text NOT NULL,
  -- draft, scheduled, active, resolved
  status      text NOT NULL,
  starts_at   timestamptz,
  ends_at     timestamptz,
  resolved_at timestamptz,
  created_by  bigint,
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);
CREATE INDEX staff_notices_org ON staff_notices (org_id, status);

CREATE TABLE staff_notice_updates (
  id          bigserial PRIMARY KEY,
  notice_id   bigint NOT NULL REFERENCES staff_notices (id) ON DELETE CASCADE,
  body        text NOT NULL,
  -- the notice's status this update moved it to, or null
  state       text,
  created_by  bigint,
  created_at  timestamptz NOT NULL
);
CREATE INDEX staff_notice_updates_notice ON staff_notice_updates (notice_id, id);
