/** The analytics module's tables as Kysely sees them (migrations/*_analytics.sql). */
export interface AnalyticsSiteRow {
  org_id: number;
  site_key: string;
  created_at: Date;
}

export interface AnalyticsSaltRow {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  salt: string;
}

export interface AnalyticsEventRow {
  org_id: number;
  at: Date;
  visitor: string;
  visit_id: number | null;
  /** `pageview`, or a named event. */
  name: string;
  path: string;
  referrer_host: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  screen_width: number | null;
  props: string | null;
}

export interface AnalyticsVisitRow {
  id: number;
  org_id: number;
  visitor: string;
  started_at: Date;
  last_seen_at: Date;
  pageviews: number;
  events: number;
  entry_path: string;
  source: string;
  referrer_host: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  orders: number;
}

export interface AnalyticsLinkRow {
  org_id: number;
  ref: string;
  visit_id: number;
  at: Date;
}

export interface AnalyticsHourlyRow {
  org_id: number;
  hour: Date;
  visitors: number;
  new_visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  duration_s: number;
  events: number;
}

/** The hourly rollups summed by UTC day (`day` as `YYYY-MM-DD`). */
export interface AnalyticsDailyRow {
  org_id: number;
  day: string;
  visitors: number;
  pageviews: number;
  visits: number;
  bounces: number;
  duration_s: number;
  events: number;
}

export interface AnalyticsTables {
  analytics_sites: AnalyticsSiteRow;
  analytics_salts: AnalyticsSaltRow;
  analytics_events: AnalyticsEventRow;
  analytics_visits: AnalyticsVisitRow;
  analytics_links: AnalyticsLinkRow;
  analytics_hourly: AnalyticsHourlyRow;
  analytics_daily: AnalyticsDailyRow;
}
