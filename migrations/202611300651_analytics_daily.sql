-- Daily rollups of storefront analytics (docs/analytics.md, "Storage"): the hourly rollups summed by
-- UTC day as they are written, so that a series of days, weeks or months reads one row a day.
CREATE TABLE analytics_daily (
  org_id      bigint NOT NULL,
  day         date NOT NULL,
  -- distinct visitors of the day (the visitor hash is per day)
  visitors    integer NOT NULL DEFAULT 0,
  pageviews   integer NOT NULL DEFAULT 0,
  visits      integer NOT NULL DEFAULT 0,
  bounces     integer NOT NULL DEFAULT 0,
  duration_s  bigint NOT NULL DEFAULT 0,
  events      integer NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, day)
);
