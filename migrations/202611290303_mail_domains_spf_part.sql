-- Whether adding the sending domain put our SPF include into the zone holder's SPF record (or
-- made the record), so that removing the domain takes it out again (RFC 7208 §4.5: one record).
ALTER TABLE mail_domains ADD COLUMN spf_part boolean NOT NULL DEFAULT false;
