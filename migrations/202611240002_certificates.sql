-- Certificates over ACME (RFC 8555): the certificates, the issuances the 7-day count reads, and
-- one ACME account per provider. Private keys are sealed (kernel sealing), never stored in clear.
CREATE TABLE certificates_acme_accounts (
  provider      text PRIMARY KEY,
  directory_url text NOT NULL,
  account_key   bytea NOT NULL,
  account_url   text,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE certificates_certs (
  id                 bigserial PRIMARY KEY,
  user_id            bigint NOT NULL,
  domain             text NOT NULL,
  route_id           bigint,
  zone_id            bigint,
  status             text NOT NULL,
  issuer             text,
  challenge_method   text NOT NULL,
  serial             text,
  fingerprint_sha256 text,
  requested_provider text,
  error_message      text,
  issued_at          timestamptz,
  expires_at         timestamptz,
  last_renewal_at    timestamptz,
  renewal_attempts   integer NOT NULL DEFAULT 0,
  renewal_failures   integer NOT NULL DEFAULT 0,
  san_domains        jsonb NOT NULL,
  failover_from      jsonb NOT NULL DEFAULT '[]',
  registered_domain  text,
  private_key        bytea,
  certificate_pem    text,
  -- The order in progress: its provider and URL, its challenges, the step the engine takes next
  -- (null: nothing to do; 'await_user': a manual challenge waits for /complete), when, and the lease
  -- of the process taking it.
  provider           text,
  order_url          text,
  order_key          bytea,
  challenges         jsonb,
  auto_complete      boolean NOT NULL DEFAULT true,
  job_step           text,
  job_started_at     timestamptz,
  next_attempt_at    timestamptz,
  lease_until        timestamptz,
  claimed_by         text,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
CREATE INDEX certificates_certs_owner_idx ON certificates_certs (user_id, domain);
CREATE INDEX certificates_certs_domain_idx ON certificates_certs (domain);
CREATE INDEX certificates_certs_due_idx ON certificates_certs (next_attempt_at) WHERE job_step IS NOT NULL;

CREATE TABLE certificates_issuances (
  id                bigserial PRIMARY KEY,
  certificate_id    bigint NOT NULL,
  registered_domain text NOT NULL,
  issued_at         timestamptz NOT NULL
);
CREATE INDEX certificates_issuances_domain_idx ON certificates_issuances (registered_domain, issued_at);
