-- How a signed zone proves that names and types do not exist (docs/dns-and-load-balancing.md,
-- "DNSSEC"): 'nsec3', an NSEC3 chain signed with the zone (RFC 5155 with RFC 9276's parameters),
-- or 'online', NSEC white lies signed per answer (RFC 4470). Zones signed before this column keep
-- their online denial; zones signed from now on start on nsec3.
ALTER TABLE dns_dnssec_zones
  ADD COLUMN denial text NOT NULL DEFAULT 'online' CHECK (denial IN ('nsec3', 'online'));
ALTER TABLE dns_dnssec_zones ALTER COLUMN denial SET DEFAULT 'nsec3';
