-- The instance list reads an organization's instances newest first: one index serves the filter
-- and the order.
DROP INDEX compute_instances_org;
CREATE INDEX compute_instances_org_created ON compute_instances (org_id, created_at DESC, uuid);
