-- A visit is extended on every page view of its visitor (last_seen_at, pageviews, events). With
-- last_seen_at out of the visitor index and room left on each page, that update is a heap-only
-- tuple update: no new entry in any of the table's three indexes per page view. The ingestion's
-- lookup (org, visitors, seen since) reads a visitor's few visits through (org_id, visitor).
DROP INDEX analytics_visits_visitor;
CREATE INDEX analytics_visits_visitor ON analytics_visits (org_id, visitor);
ALTER TABLE analytics_visits SET (fillfactor = 80);
