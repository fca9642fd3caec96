-- DNSSEC with online signing. One row per signed zone, one per key. Private keys are
-- stored AES-256-GCM encrypted (iv | tag | ciphertext) under DNSSEC_KEY_ENCRYPTION_KEY, never in
-- clear. dns_zones.dnssec_enabled stays the flag the API shows.
CREATE TABLE dns_dnssec_zones (
  zone_id         bigint PRIMARY KEY REFERENCES dns_zones (id) ON DELETE CASCADE,
  algorithm       smallint NOT NULL,
  -- Set when signing was turned off: the RFC 8078 delete CDS/CDNSKEY are published and the zone
  -- stays signed until the grace period ends, then keys and this row go.
  disabling_since timestamptz,
  zsk_rotated_at  timestamptz,
  created_at      timestamptz NOT NULL
);

CREATE TABLE dns_dnssec_keys (
  id           bigserial PRIMARY KEY,
  zone_id      bigint NOT NULL REFERENCES dns_zones (id) ON DELETE CASCADE,
  role         text NOT NULL CHECK (role IN ('ksk', 'zsk')),
  -- published: in the DNSKEY RRset, not signing yet; active: signing; retired: published, no
  -- longer signing, withdrawn once its signatures have expired.
  state        text NOT NULL CHECK (state IN ('published', 'active', 'retired')),
  algorithm    smallint NOT NULL,
  key_tag      integer NOT NULL,
  dnskey       bytea NOT NULL,
  private_key  bytea NOT NULL,
  published_at timestamptz NOT NULL,
  activated_at timestamptz,
  retired_at   timestamptz
);
CREATE INDEX dns_dnssec_keys_zone_idx ON dns_dnssec_keys (zone_id);
