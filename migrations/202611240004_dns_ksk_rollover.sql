-- KSK rollover (RFC 7583 double-DS): the state of a zone's running rollover and what the
-- last look at the parent's DS RRset found. No rollover: ksk_rollover_state is NULL.
ALTER TABLE dns_dnssec_zones
  ADD COLUMN ksk_rollover_state text
    CHECK (ksk_rollover_state IN ('waiting_for_parent_ds', 'parent_ds_seen', 'retiring_old_key')),
  ADD COLUMN ksk_rollover_started_at timestamptz,
  ADD COLUMN ksk_parent_check_at timestamptz,
  ADD COLUMN ksk_parent_ds_seen_at timestamptz,
  ADD COLUMN ksk_parent_ds_ttl integer;
