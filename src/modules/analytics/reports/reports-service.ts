import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { AnalyticsContext } from '../analytics-context.ts';
import type { IngestService } from '../ingest/ingest-service.ts';
import {
  addSums,
  NO_SUMS,
  type Granularity,
  type RollupSums,
  type StatsRepository,
} from './reports-repository.ts';
import type {
  ConversionsResponse,
  LiveResponse,
  PagesResponse,
  StatsFigures,
  StatsResponse,
  TodayResponse,
} from './reports-schemas.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Visitors of the last five minutes are live. */
export const LIVE_WINDOW_MS = 5 * 60_000;
/** The longest range: ten years of days; hourly series at most 31 days. */
const MAX_DAYS = 3660;
const MAX_HOURLY_DAYS = 31;

const pct = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;

function figures(s: Omit<RollupSums, 'bucket'>): StatsFigures {
  return {
    visitors: s.visitors,
    pageviews: s.pageviews,
    visits: s.visits,
    bounce_rate: pct(s.bounces, s.visits),
    visit_duration_s: s.visits === 0 ? 0 : Math.round(s.duration_s / s.visits),
    events: s.events,
  };
}

/** ISO texts of bucket instants already written: a year of days is 365 toISOString calls a read. */
const isoTexts = new Map<number, string>();

function isoOf(ms: number): string {
  let text = isoTexts.get(ms);
  if (text === undefined) {
    if (isoTexts.size >= 50_000) isoTexts.clear();
    isoTexts.set(ms, (text = new Date(ms).toISOString()));
  }
  return text;
}

/** The first instant of each bucket of `granularity` from `from` until `to` (UTC; weeks begin on Monday). */
function buckets(from: number, to: number, granularity: Granularity): number[] {
  const out: number[] = [];
  const d = new Date(from);
  if (granularity === 'weekly') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  if (granularity === 'monthly') d.setUTCDate(1);
  while (d.getTime() < to) {
    out.push(d.getTime());
    if (granularity === 'hourly') d.setTime(d.getTime() + HOUR_MS);
    else if (granularity === 'daily') d.setUTCDate(d.getUTCDate() + 1);
    else if (granularity === 'weekly') d.setUTCDate(d.getUTCDate() + 7);
    else d.setUTCMonth(d.getUTCMonth() + 1);
  }
  return out;
}

/** Reading an organization's figures; every read first writes what ingestion holds in memory. */
export class StatsService {
  constructor(
    private readonly ctx: AnalyticsContext,
    private readonly repo: StatsRepository,
    private readonly ingest: IngestService,
  ) {}

  /** The range [start 00:00, the day after end 00:00) of two query dates; 422 naming a bad one. */
  range(start: string, end: string): { from: number; to: number } {
    const parse = (field: string, value: string): number => {
      const ms = Date.parse(`${value}T00:00:00Z`);
      if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value)
        throw invalidField(['query', field], 'Input should be a valid date', value, 'date_parsing');
      return ms;
    };
    const from = parse('start_date', start);
    const to = parse('end_date', end) + DAY_MS;
    if (to <= from) throw invalidField(['query', 'end_date'], 'end_date must not be before start_date', end);
    if (to - from > MAX_DAYS * DAY_MS)
      throw invalidField(['query', 'end_date'], `The range is at most ${MAX_DAYS} days`, end);
    return { from, to };
  }

  async stats(orgId: number, start: string, end: string, granularity: Granularity): Promise<StatsResponse> {
    const { from, to } = this.range(start, end);
    if (granularity === 'hourly' && to - from > MAX_HOURLY_DAYS * DAY_MS)
      throw invalidField(
        ['query', 'granularity'],
        `hourly covers at most ${MAX_HOURLY_DAYS} days`,
        granularity,
      );
    await this.ingest.flush();
    const rows = await this.repo.series(orgId, new Date(from), new Date(to), granularity);
    // Both oldest first: one walk pairs each bucket with its sums (a year of days is 365 of each).
    const total = { ...NO_SUMS };
    let next = 0;
    const results = buckets(from, to, granularity).map((b) => {
      while (next < rows.length && rows[next]!.bucket.getTime() < b) next++;
      const sums = next < rows.length && rows[next]!.bucket.getTime() === b ? rows[next++]! : NO_SUMS;
      addSums(total, sums);
      return { date: isoOf(b), ...figures(sums) };
    });
    return { start_date: start, end_date: end, granularity, totals: figures(total), results };
  }

  async pages(
    orgId: number,
    start: string,
    end: string,
    page: number,
    perPage: number,
  ): Promise<PagesResponse> {
    const { from, to } = this.range(start, end);
    await this.ingest.flush();
    const { total, rows } = await this.repo.pages(
      orgId,
      new Date(from),
      new Date(to),
      perPage,
      (page - 1) * perPage,
    );
    return { page, per_page: perPage, total, results: rows };
  }

  async live(orgId: number): Promise<LiveResponse> {
    await this.ingest.flush();
    const since = new Date(this.ctx.clock.now() - LIVE_WINDOW_MS);
    return { ...(await this.repo.since(orgId, since)), since: since.toISOString() };
  }

  async today(orgId: number): Promise<TodayResponse> {
    await this.ingest.flush();
    const from = Math.floor(this.ctx.clock.now() / DAY_MS) * DAY_MS;
    const hourly = await this.repo.series(orgId, new Date(from), new Date(from + DAY_MS), 'hourly');
    const daily = await this.repo.series(orgId, new Date(from), new Date(from + DAY_MS), 'daily');
    const byHour = new Map(hourly.map((r) => [r.bucket.getTime(), r]));
    return {
      date: new Date(from).toISOString().slice(0, 10),
      totals: figures(daily[0] ?? NO_SUMS),
      hours: buckets(from, from + DAY_MS, 'hourly').map((h) => ({
        hour: new Date(h).toISOString(),
        ...figures(byHour.get(h) ?? NO_SUMS),
      })),
    };
  }

  async conversions(orgId: number, start: string, end: string): Promise<ConversionsResponse> {
    const { from, to } = this.range(start, end);
    await this.ingest.flush();
    const rows = await this.repo.conversions(orgId, new Date(from), new Date(to));
    const sum = (k: 'visits' | 'conversions' | 'orders'): number => rows.reduce((n, r) => n + r[k], 0);
    return {
      start_date: start,
      end_date: end,
      visits: sum('visits'),
      conversions: sum('conversions'),
      orders: sum('orders'),
      conversion_rate: pct(sum('conversions'), sum('visits')),
      sources: rows.map((r) => ({ ...r, conversion_rate: pct(r.conversions, r.visits) })),
    };
  }
}
