-- An organization's settings: Commerce on or off (off: the Commerce API answers 404).
ALTER TABLE orgs ADD COLUMN commerce_enabled boolean NOT NULL DEFAULT false;
