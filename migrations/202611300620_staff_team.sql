-- The staff console's team (docs/staff-console.md, "Team"): a teammate's display name, the
-- console's sign-in policy, and step-ups (a password or second factor confirmed again inside a
-- staff session, for sensitive changes such as a customer link).
ALTER TABLE staff_members ADD COLUMN name text;

CREATE TABLE staff_policies (
  org_id            bigint PRIMARY KEY REFERENCES orgs (id) ON DELETE CASCADE,
  require_mfa       boolean NOT NULL DEFAULT false,
  -- when require_mfa was last turned on: sessions started after it need a second factor
  require_mfa_since timestamptz,
  updated_at        timestamptz NOT NULL
);

CREATE TABLE staff_step_ups (
  session_id  text PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  user_id     bigint NOT NULL,
  at          timestamptz NOT NULL
);
