-- An organization's settings: Commerce on or off (seed "Commerce must be enabled").
ALTER TABLE orgs ADD COLUMN commerce_enabled boolean NOT NULL DEFAULT false;
