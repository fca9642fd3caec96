import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  AnalyticsDailyRow,
  AnalyticsEventRow,
  AnalyticsHourlyRow,
  AnalyticsLinkRow,
  AnalyticsTables,
  AnalyticsVisitRow,
} from '../analytics-tables.ts';

type Db = Kysely<AnalyticsTables> | Transaction<AnalyticsTables>;

/*
 * A flush writes up to TRACKING_FLUSH_ROWS events and visits at once: as one JSON text read by
 * json_to_recordset, not one parameter a value (a VALUES list of 1,000 rows was 12,000, built and
 * parsed anew) nor one array a column (the driver builds array literals character by character;
 * JSON.stringify is native). Instants go as ISO text, props as the JSON text the row holds.
 */
const asJson = (rows: readonly object[]): string => JSON.stringify(rows);

/** Raw events, visits, day salts and hourly rollups: what ingestion writes and retention drops. */
export class IngestRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<AnalyticsTables>): IngestRepository {
    return new IngestRepository(trx);
  }

  /** The day's salt, made with `fresh` by the first caller of the day. */
  async saltOf(day: string, fresh: string): Promise<string> {
    await this.db
      .insertInto('analytics_salts')
      .values({ day, salt: fresh })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('analytics_salts')
      .select('salt')
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
    return row.salt;
  }

  async deleteSaltsBefore(day: string): Promise<void> {
    await this.db.deleteFrom('analytics_salts').where('day', '<', day).execute();
  }

  /** The latest visit of each of `visitors` seen since `since`. */
  async latestVisits(orgId: number, visitors: readonly string[], since: Date): Promise<AnalyticsVisitRow[]> {
    if (visitors.length === 0) return [];
    return this.db
      .selectFrom('analytics_visits')
      .selectAll()
      .where('org_id', '=', orgId)
      .where(sql<boolean>`visitor = ANY(${[...visitors]}::text[])`)
      .where('last_seen_at', '>=', since)
      .orderBy('last_seen_at', 'asc')
      .execute();
  }

  async nextVisitIds(n: number): Promise<number[]> {
    if (n === 0) return [];
    const { rows } = await sql<{ id: string }>`
      SELECT nextval('analytics_visits_id_seq') AS id FROM generate_series(1, ${n})`.execute(this.db);
    return rows.map((r) => Number(r.id));
  }

  async upsertVisits(rows: readonly AnalyticsVisitRow[]): Promise<void> {
    if (rows.length === 0) return;
    await sql`INSERT INTO analytics_visits (id, org_id, visitor, started_at, last_seen_at, pageviews, events,
        entry_path, source, referrer_host, utm_source, utm_medium, utm_campaign, orders)
      SELECT * FROM json_to_recordset(${asJson(rows)}::json) AS r(id bigint, org_id bigint, visitor text,
        started_at timestamptz, last_seen_at timestamptz, pageviews int, events int, entry_path text,
        source text, referrer_host text, utm_source text, utm_medium text, utm_campaign text, orders int)
      ON CONFLICT (id) DO UPDATE SET last_seen_at = excluded.last_seen_at, pageviews = excluded.pageviews,
        events = excluded.events`.execute(this.db);
  }

  /** Makes the day's partition of the raw events (`day` is `YYYY-MM-DD`); false when it cannot. */
  async ensurePartition(day: string): Promise<boolean> {
    const name = `analytics_events_p${day.replaceAll('-', '')}`;
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    try {
      await sql`CREATE TABLE IF NOT EXISTS ${sql.id(name)} PARTITION OF analytics_events
        FOR VALUES FROM (${sql.lit(`${day} 00:00:00+00`)}) TO (${sql.lit(`${next} 00:00:00+00`)})`.execute(
        this.db,
      );
      return true;
    } catch {
      return false;
    }
  }

  async insertEvents(rows: readonly AnalyticsEventRow[]): Promise<void> {
    if (rows.length === 0) return;
    await sql`INSERT INTO analytics_events (org_id, at, visitor, visit_id, name, path, referrer_host, utm_source,
        utm_medium, utm_campaign, screen_width, props)
      SELECT org_id, at, visitor, visit_id, name, path, referrer_host, utm_source, utm_medium, utm_campaign,
        screen_width, props::jsonb
      FROM json_to_recordset(${asJson(rows)}::json) AS r(org_id bigint, at timestamptz, visitor text,
        visit_id bigint, name text, path text, referrer_host text, utm_source text, utm_medium text,
        utm_campaign text, screen_width int, props text)`.execute(this.db);
  }

  /** Adds each row's counts to its hour's rollup. */
  async addHourly(rows: readonly AnalyticsHourlyRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('analytics_hourly')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['org_id', 'hour']).doUpdateSet({
          visitors: sql`analytics_hourly.visitors + excluded.visitors`,
          new_visitors: sql`analytics_hourly.new_visitors + excluded.new_visitors`,
          pageviews: sql`analytics_hourly.pageviews + excluded.pageviews`,
          visits: sql`analytics_hourly.visits + excluded.visits`,
          bounces: sql`analytics_hourly.bounces + excluded.bounces`,
          duration_s: sql`analytics_hourly.duration_s + excluded.duration_s`,
          events: sql`analytics_hourly.events + excluded.events`,
        }),
      )
      .execute();
  }

  /** Adds the hourly rows' counts to their days' rollups (a day's visitors: its hours' new visitors). */
  async addDaily(hourly: readonly AnalyticsHourlyRow[]): Promise<void> {
    const days = new Map<string, AnalyticsDailyRow>();
    for (const h of hourly) {
      const day = h.hour.toISOString().slice(0, 10);
      const key = `${h.org_id}:${day}`;
      const d = days.get(key) ?? {
        org_id: h.org_id,
        day,
        visitors: 0,
        pageviews: 0,
        visits: 0,
        bounces: 0,
        duration_s: 0,
        events: 0,
      };
      d.visitors += h.new_visitors;
      d.pageviews += h.pageviews;
      d.visits += h.visits;
      d.bounces += h.bounces;
      d.duration_s += h.duration_s;
      d.events += h.events;
      days.set(key, d);
    }
    if (days.size === 0) return;
    await this.db
      .insertInto('analytics_daily')
      .values([...days.values()])
      .onConflict((oc) =>
        oc.columns(['org_id', 'day']).doUpdateSet({
          visitors: sql`analytics_daily.visitors + excluded.visitors`,
          pageviews: sql`analytics_daily.pageviews + excluded.pageviews`,
          visits: sql`analytics_daily.visits + excluded.visits`,
          bounces: sql`analytics_daily.bounces + excluded.bounces`,
          duration_s: sql`analytics_daily.duration_s + excluded.duration_s`,
          events: sql`analytics_daily.events + excluded.events`,
        }),
      )
      .execute();
  }

  async upsertLinks(rows: readonly AnalyticsLinkRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('analytics_links')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['org_id', 'ref']).doUpdateSet((eb) => ({
          visit_id: eb.ref('excluded.visit_id'),
          at: eb.ref('excluded.at'),
        })),
      )
      .execute();
  }

  /** Drops the daily partitions wholly before `day`, and deletes older rows left elsewhere. */
  async dropBefore(day: string): Promise<number> {
    const { rows } = await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'analytics_events'::regclass`.execute(this.db);
    const cutoff = `analytics_events_p${day.replaceAll('-', '')}`;
    let dropped = 0;
    for (const { name } of rows) {
      if (!/^analytics_events_p\d{8}$/.test(name) || name >= cutoff) continue;
      await sql`DROP TABLE IF EXISTS ${sql.id(name)}`.execute(this.db);
      dropped++;
    }
    const at = new Date(`${day}T00:00:00Z`);
    await this.db.deleteFrom('analytics_events').where('at', '<', at).execute();
    await this.db.deleteFrom('analytics_visits').where('last_seen_at', '<', at).execute();
    await this.db.deleteFrom('analytics_links').where('at', '<', at).execute();
    return dropped;
  }
}
