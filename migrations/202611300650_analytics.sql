-- Storefront analytics (docs/analytics.md): no cookies and no personal data. A visitor is a hash of
-- the client's address and user agent salted with a random salt of the day, deleted once the day is
-- over; neither the address nor the user agent is stored.

-- An organization's public site key, made on first use of its tracking script.
CREATE TABLE analytics_sites (
  org_id      bigint PRIMARY KEY REFERENCES orgs (id) ON DELETE CASCADE,
  site_key    text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL
);

-- The salt of each day (UTC); a day's row is deleted once the day is over.
CREATE TABLE analytics_salts (
  day   date PRIMARY KEY,
  salt  text NOT NULL
);

-- Raw events, partitioned by day (one partition a day, made before the first insert of that day,
-- dropped after TRACKING_RETENTION_DAYS); the default partition only takes what a partition could
-- not be made for, and is swept by rows.
CREATE TABLE analytics_events (
  org_id         bigint NOT NULL,
  at             timestamptz NOT NULL,
  visitor        text NOT NULL,
  visit_id       bigint,
  -- pageview, or a named event
  name           text NOT NULL,
  path           text NOT NULL,
  referrer_host  text,
  utm_source     text,
  utm_medium     text,
  utm_campaign   text,
  screen_width   integer,
  props          jsonb
) PARTITION BY RANGE (at);
CREATE TABLE analytics_events_default PARTITION OF analytics_events DEFAULT;
CREATE INDEX analytics_events_org_at ON analytics_events (org_id, at);

-- Visits (a visitor's page views with gaps under 30 minutes), kept as long as raw events.
CREATE TABLE analytics_visits (
  id             bigserial PRIMARY KEY,
  org_id         bigint NOT NULL,
  visitor        text NOT NULL,
  started_at     timestamptz NOT NULL,
  last_seen_at   timestamptz NOT NULL,
  pageviews      integer NOT NULL,
  events         integer NOT NULL,
  entry_path     text NOT NULL,
  -- utm_source, else the referrer's host, else 'direct'
  source         text NOT NULL,
  referrer_host  text,
  utm_source     text,
  utm_medium     text,
  utm_campaign   text,
  orders         integer NOT NULL DEFAULT 0
);
CREATE INDEX analytics_visits_visitor ON analytics_visits (org_id, visitor, last_seen_at);
CREATE INDEX analytics_visits_started ON analytics_visits (org_id, started_at);

-- Order references a storefront page linked to its visit (`cart:<id>`, `customer:<id>`).
CREATE TABLE analytics_links (
  org_id    bigint NOT NULL,
  ref       text NOT NULL,
  visit_id  bigint NOT NULL,
  at        timestamptz NOT NULL,
  PRIMARY KEY (org_id, ref)
);

-- Hourly rollups, kept for good: stats read these, never the raw events.
CREATE TABLE analytics_hourly (
  org_id        bigint NOT NULL,
  hour          timestamptz NOT NULL,
  -- distinct visitors seen in the hour
  visitors      integer NOT NULL DEFAULT 0,
  -- visitors first seen that day in this hour (sums to the day's visitors)
  new_visitors  integer NOT NULL DEFAULT 0,
  pageviews     integer NOT NULL DEFAULT 0,
  visits        integer NOT NULL DEFAULT 0,
  bounces       integer NOT NULL DEFAULT 0,
  duration_s    bigint NOT NULL DEFAULT 0,
  events        integer NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, hour)
);
