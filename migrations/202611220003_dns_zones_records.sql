-- DNS zones and their records. The apex SOA and NS RRsets are not rows: the platform builds them
-- from the zone's SOA fields and NAMESERVERS when it publishes the zone.
CREATE TABLE dns_zones (
  id             bigserial PRIMARY KEY,
  user_id        bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  org_id         bigint,
  service_id     bigint,
  domain         text NOT NULL UNIQUE,
  status         text NOT NULL DEFAULT 'active',
  dnssec_enabled boolean NOT NULL DEFAULT false,
  serial         bigint NOT NULL,
  soa_email      text,
  default_ttl    integer NOT NULL DEFAULT 300,
  soa_refresh    integer NOT NULL DEFAULT 7200,
  soa_retry      integer NOT NULL DEFAULT 3600,
  soa_expire     integer NOT NULL DEFAULT 1209600,
  soa_minimum    integer NOT NULL DEFAULT 300,
  soa_ttl        integer NOT NULL DEFAULT 3600,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dns_zones_user_idx ON dns_zones (user_id, domain);

CREATE TABLE dns_records (
  id         bigserial PRIMARY KEY,
  zone_id    bigint NOT NULL REFERENCES dns_zones (id) ON DELETE CASCADE,
  name       text NOT NULL,
  type       text NOT NULL,
  type_code  integer NOT NULL,
  content    text NOT NULL,
  rdata      bytea NOT NULL,
  ttl        integer NOT NULL,
  -- The module that manages this record (certificates, platform domains...); null = the user's.
  managed_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dns_records_zone_name_idx ON dns_records (zone_id, name, type);
-- RFC 2181 §5: records equal but for the TTL are the same record; an RRset holds each once.
CREATE UNIQUE INDEX dns_records_identity_key ON dns_records (zone_id, name, type_code, md5(rdata));
