-- The identity index (zone_id, name, type_code, md5(rdata)) already serves lookups by zone and
-- name; a second index on the same leading columns only slowed bulk imports down.
DROP INDEX IF EXISTS dns_records_zone_name_idx;
