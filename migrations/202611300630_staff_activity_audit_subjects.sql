-- The subjects of an audit entry (docs/staff-console.md, "Activity"): the storefront customer,
-- the service (a hosting order) and the server an action touched, where the route knows them. The
-- staff console's activity log filters an organization's entries by them.
ALTER TABLE audit_log ADD COLUMN customer_id bigint;
ALTER TABLE audit_log ADD COLUMN service_id bigint;
ALTER TABLE audit_log ADD COLUMN server_uuid text;
CREATE INDEX audit_log_org_customer_idx ON audit_log (org_id, customer_id, id DESC) WHERE customer_id IS NOT NULL;
CREATE INDEX audit_log_org_service_idx ON audit_log (org_id, service_id, id DESC) WHERE service_id IS NOT NULL;
CREATE INDEX audit_log_org_server_idx ON audit_log (org_id, server_uuid, id DESC) WHERE server_uuid IS NOT NULL;
CREATE INDEX audit_log_org_actor_idx ON audit_log (org_id, actor_user_id, id DESC);
