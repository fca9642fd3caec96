-- Names claimed under the platform's own suffixes: each claim has its own zone, delegated from the
-- suffix zone, and a wildcard certificate requested once the suffix is delegated to us.
CREATE TABLE platform_domains_claims (
  id                       bigserial PRIMARY KEY,
  user_id                  bigint NOT NULL,
  label                    text NOT NULL,
  suffix                   text NOT NULL,
  zone_id                  bigint,
  certificate_requested_at timestamptz,
  created_at               timestamptz NOT NULL,
  UNIQUE (label, suffix)
);
CREATE INDEX platform_domains_claims_user_idx ON platform_domains_claims (user_id, id);
