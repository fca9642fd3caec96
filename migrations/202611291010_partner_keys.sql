-- Partner keys: a partner's credential for its boost claims in one organization
-- (docs/keys-and-limits.md, "Partner keys"). Made and revoked by platform staff on the command
-- line; only a SHA-256 digest is kept, with a short lookup prefix to find the row.
CREATE TABLE keys_partner_keys (
  id          bigserial PRIMARY KEY,
  org_id      bigint NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
  -- The partner's slug (a-z, 0-9, -), as it appears in the path of its routes.
  partner     text NOT NULL,
  lookup      text NOT NULL UNIQUE,
  key_hash    text NOT NULL,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX keys_partner_keys_org_idx ON keys_partner_keys (org_id, partner);
