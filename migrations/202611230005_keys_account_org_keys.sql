-- API keys. Only a SHA-256 digest of each key is kept, with a short lookup prefix to find its row;
-- the key itself is shown once, at creation.

-- Account keys: created and revoked, never accepted (docs/keys-and-limits.md, "Account API keys").
CREATE TABLE keys_account_keys (
  id            bigserial PRIMARY KEY,
  user_id       bigint NOT NULL REFERENCES identity_users (id) ON DELETE CASCADE,
  label         text NOT NULL,
  permissions   jsonb NOT NULL DEFAULT '[]',
  ip_whitelist  jsonb NOT NULL DEFAULT '[]',
  lookup        text NOT NULL UNIQUE,
  key_hash      text NOT NULL,
  is_active     boolean NOT NULL DEFAULT true,
  created_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE INDEX keys_account_keys_user_idx ON keys_account_keys (user_id, id DESC);

-- Organization keys: the Commerce API, with scopes, an hourly limit and an allow-list.
CREATE TABLE keys_org_keys (
  id                   bigserial PRIMARY KEY,
  org_id               bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  label                text NOT NULL,
  scopes               jsonb NOT NULL DEFAULT '[]',
  rate_limit_per_hour  integer NOT NULL DEFAULT 4000,
  ip_whitelist         jsonb NOT NULL DEFAULT '[]',
  lookup               text NOT NULL UNIQUE,
  key_hash             text NOT NULL,
  is_active            boolean NOT NULL DEFAULT true,
  created_at           timestamptz NOT NULL DEFAULT now(),
  revoked_at           timestamptz
);
CREATE INDEX keys_org_keys_org_idx ON keys_org_keys (org_id, id DESC);
