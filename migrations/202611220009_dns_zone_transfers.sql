-- Zone transfers out. One settings row per zone that is transferred: who may transfer
-- (allow_from, jsonb list of addresses/CIDRs), the optional TSIG key (RFC 8945; the secret is
-- AES-256-GCM encrypted, iv | tag | ciphertext, under DNSSEC_KEY_ENCRYPTION_KEY, never in clear)
-- and where to send NOTIFY (jsonb list of "address:port").
CREATE TABLE dns_zone_transfers (
  zone_id        bigint PRIMARY KEY REFERENCES dns_zones (id) ON DELETE CASCADE,
  allow_from     jsonb NOT NULL DEFAULT '[]',
  notify         jsonb NOT NULL DEFAULT '[]',
  tsig_name      text,
  tsig_algorithm text,
  tsig_secret    bytea,
  updated_at     timestamptz NOT NULL
);

-- The record sets a transferred zone was published with, per serial, for IXFR (RFC 1995): the
-- last versions of each zone are kept (see zone-versions.ts), older ones deleted.
CREATE TABLE dns_zone_versions (
  id         bigserial PRIMARY KEY,
  zone_id    bigint NOT NULL REFERENCES dns_zones (id) ON DELETE CASCADE,
  serial     bigint NOT NULL,
  records    bytea NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (zone_id, serial)
);
