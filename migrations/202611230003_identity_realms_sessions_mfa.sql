-- Sign-in realms (main, storefront, staff), sessions that can be ended at once, password reset,
-- and TOTP second factor. Secrets are stored as digests (tokens, codes) or sealed (TOTP secrets).

-- An organization's storefront customers: accounts of their own, one organization each; the same
-- address may exist in several organizations and on the main site as separate accounts.
CREATE TABLE identity_customers (
  id             bigserial PRIMARY KEY,
  org_id         bigint NOT NULL,
  email          text NOT NULL,
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX identity_customers_org_email_key ON identity_customers (org_id, lower(email));

-- A session: one sign-in in one realm (a refresh-token family). Ending it refuses its access and
-- refresh tokens at once. subject_id is a user (main, staff) or a customer (storefront).
CREATE TABLE identity_sessions (
  id          text PRIMARY KEY,
  realm       text NOT NULL CHECK (realm IN ('main', 'storefront', 'staff')),
  subject_id  bigint NOT NULL,
  org_id      bigint,
  created_at  timestamptz NOT NULL DEFAULT now(),
  ended_at    timestamptz
);
CREATE INDEX identity_sessions_subject_idx ON identity_sessions (realm, subject_id) WHERE ended_at IS NULL;
CREATE INDEX identity_sessions_org_idx ON identity_sessions (org_id) WHERE ended_at IS NULL;

-- Refresh tokens now belong to a session of any realm; subject_id may name a customer.
ALTER TABLE identity_refresh_tokens DROP CONSTRAINT IF EXISTS refresh_tokens_user_id_fkey;
ALTER TABLE identity_refresh_tokens RENAME COLUMN user_id TO subject_id;
ALTER TABLE identity_refresh_tokens ADD COLUMN realm text NOT NULL DEFAULT 'main';
ALTER TABLE identity_refresh_tokens ADD COLUMN org_id bigint;
ALTER TABLE identity_refresh_tokens ADD COLUMN session_id text REFERENCES identity_sessions (id) ON DELETE CASCADE;

-- Single-use password reset tokens (digests), valid one hour.
CREATE TABLE identity_password_resets (
  id          bigserial PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE,
  realm       text NOT NULL,
  subject_id  bigint NOT NULL,
  org_id      bigint,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- TOTP (RFC 6238): the secret sealed; enabled_at null while enrolment awaits its first code.
-- last_step: the time step of the last accepted code, so a code works once (RFC 6238 §5.2).
CREATE TABLE identity_mfa (
  user_id     bigint PRIMARY KEY REFERENCES identity_users (id) ON DELETE CASCADE,
  secret      bytea NOT NULL,
  enabled_at  timestamptz,
  last_step   bigint,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identity_recovery_codes (
  id          bigserial PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
  code_hash   text NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX identity_recovery_codes_user_idx ON identity_recovery_codes (user_id);

-- A sign-in waiting for its second factor (mfa_token digests), valid five minutes, used once.
CREATE TABLE identity_mfa_challenges (
  token_hash  text PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
  realm       text NOT NULL,
  org_id      bigint,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
