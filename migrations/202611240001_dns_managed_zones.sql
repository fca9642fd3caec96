-- Zones a platform module holds (platform domain suffixes: no account, managed_by set) and zones
-- of an account that a module manages (platform domain claims: the account edits records, only
-- the module deletes the zone).
ALTER TABLE dns_zones ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE dns_zones ADD COLUMN managed_by text;
