import { createHash } from 'node:crypto';
import type { AnalyticsContext } from '../analytics-context.ts';
import type {
  AnalyticsEventRow,
  AnalyticsHourlyRow,
  AnalyticsLinkRow,
  AnalyticsVisitRow,
} from '../analytics-tables.ts';
import type { IngestRepository } from './ingest-repository.ts';

/** A visit ends after this long without a page view (Plausible's rule). */
export const VISIT_GAP_MS = 30 * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** User agents of crawlers, monitors and scripts: answered 202, never stored. */
const BOT_RE =
  /bot|crawl|spider|slurp|archiver|facebookexternalhit|headless|lighthouse|pingdom|monitor|curl\/|wget|python-requests|python-urllib|go-http-client|java\/|okhttp|httpclient|phantomjs|selenium|puppeteer|playwright/i;

export function isBot(userAgent: string | undefined): boolean {
  return userAgent === undefined || userAgent.trim() === '' || BOT_RE.test(userAgent);
}

/** One tracked hit as the route hands it over (the address and user agent are hashed, never kept). */
export interface Hit {
  readonly name: string;
  readonly url: string;
  readonly referrer?: string | undefined;
  readonly screenWidth?: number | undefined;
  readonly props?: Readonly<Record<string, unknown>> | undefined;
  /** `cart:<id>` or `customer:<id>`: ties a later storefront order to this visit. */
  readonly link?: string | undefined;
}

interface Buffered {
  readonly orgId: number;
  readonly at: number;
  readonly visitor: string;
  readonly hit: Hit;
  readonly path: string;
  readonly referrerHost: string | null;
  readonly utm: { source: string | null; medium: string | null; campaign: string | null };
}

const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;

function parseUrl(text: string): URL | null {
  try {
    return new URL(text, 'http://localhost');
  } catch {
    return null;
  }
}

/**
 * Ingestion: each accepted hit is hashed into a visitor at once and buffered in memory; a flush
 * (every TRACKING_FLUSH_INTERVAL_MS, or at TRACKING_FLUSH_ROWS) writes the buffer in one
 * transaction: the visits extended or begun, the raw events in one multi-row INSERT into their
 * day's partitions, and the hourly rollups upserted by the counts added. Retention runs when the
 * clock's day changes.
 */
export class IngestService {
  private buffer: Buffered[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private salt: { day: string; salt: string } | null = null;
  private readonly partitions = new Set<string>();
  private sweptDay: string | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: AnalyticsContext,
    private readonly repo: IngestRepository,
    private readonly random: (bytes: number) => Buffer,
  ) {}

  start(): void {
    this.timer = setInterval(
      () => void this.flush().catch(() => undefined),
      this.ctx.settings.flushIntervalMs,
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    await this.flush();
  }

  /** The salted hash of the day naming one visitor of one organization. */
  async visitorOf(orgId: number, ip: string, userAgent: string, at: number): Promise<string> {
    const day = dayOf(at);
    if (this.salt?.day !== day)
      this.salt = { day, salt: await this.repo.saltOf(day, this.random(32).toString('hex')) };
    return createHash('sha256')
      .update(`${this.salt.salt}\n${orgId}\n${ip}\n${userAgent}`)
      .digest('base64url')
      .slice(0, 22);
  }

  async accept(orgId: number, ip: string, userAgent: string, hit: Hit): Promise<void> {
    const at = this.ctx.clock.now();
    const visitor = await this.visitorOf(orgId, ip, userAgent, at);
    const url = parseUrl(hit.url);
    const ref = hit.referrer !== undefined && hit.referrer !== '' ? parseUrl(hit.referrer) : null;
    // Most page URLs carry no query: no URLSearchParams made for them.
    const q = url !== null && url.search !== '' ? url.searchParams : undefined;
    const cut = (v: string | null | undefined, n = 100): string | null =>
      v === null || v === undefined || v === '' ? null : v.slice(0, n);
    const referrerHost = ref !== null && ref.host !== 'localhost' && ref.host !== url?.host ? ref.host : null;
    this.buffer.push({
      orgId,
      at,
      visitor,
      hit,
      path: (url?.pathname ?? '/').slice(0, 500),
      referrerHost: cut(referrerHost),
      utm: {
        source: cut(q?.get('utm_source') ?? q?.get('ref')),
        medium: cut(q?.get('utm_medium')),
        campaign: cut(q?.get('utm_campaign')),
      },
    });
    if (this.buffer.length >= this.ctx.settings.flushRows) void this.flush().catch(() => undefined);
  }

  /** Writes what is buffered (one flush at a time); readers call it to see every accepted hit. */
  flush(): Promise<void> {
    const run = this.flushing.then(async () => {
      await this.sweepIfNewDay();
      const batch = this.buffer;
      if (batch.length === 0) return;
      this.buffer = [];
      try {
        await this.write(batch);
      } catch (error) {
        this.ctx.log.error({ err: error, events: batch.length }, 'analytics events not written');
      }
    });
    this.flushing = run.catch(() => undefined);
    return run;
  }

  /** Drops raw events, visits and links older than TRACKING_RETENTION_DAYS, and past salts. */
  async sweep(): Promise<void> {
    const now = this.ctx.clock.now();
    const today = dayOf(now);
    await this.repo.deleteSaltsBefore(today);
    await this.repo.dropBefore(dayOf(now - this.ctx.settings.retentionDays * DAY_MS));
    for (const day of this.partitions) if (day < today) this.partitions.delete(day);
    this.sweptDay = today;
  }

  private async sweepIfNewDay(): Promise<void> {
    if (this.sweptDay === dayOf(this.ctx.clock.now())) return;
    await this.sweep().catch((error: unknown) =>
      this.ctx.log.warn({ err: error }, 'analytics retention failed'),
    );
  }

  private async write(batch: readonly Buffered[]): Promise<void> {
    for (const day of new Set(batch.map((b) => dayOf(b.at))))
      if (!this.partitions.has(day) && (await this.repo.ensurePartition(day))) this.partitions.add(day);
    const byOrg = new Map<number, Buffered[]>();
    for (const b of batch) {
      const hits = byOrg.get(b.orgId);
      if (hits === undefined) byOrg.set(b.orgId, [b]);
      else hits.push(b);
    }
    await this.ctx.transaction(async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const events: AnalyticsEventRow[] = [];
      const hourly = new Map<string, AnalyticsHourlyRow>();
      const eventVisits: (AnalyticsVisitRow | undefined)[] = [];
      const links: { row: Omit<AnalyticsLinkRow, 'visit_id'>; visit: AnalyticsVisitRow }[] = [];
      const touched = new Map<number | string, AnalyticsVisitRow>();
      const fresh: AnalyticsVisitRow[] = [];
      for (const [orgId, hits] of byOrg) {
        hits.sort((a, b) => a.at - b.at);
        const visitors = [...new Set(hits.map((h) => h.visitor))];
        const latest = new Map<string, AnalyticsVisitRow>();
        for (const v of await repo.latestVisits(orgId, visitors, new Date(hits[0]!.at - DAY_MS)))
          latest.set(v.visitor, { ...v, id: Number(v.id) });
        const bucket = (ms: number): AnalyticsHourlyRow => {
          const hour = hourOf(ms);
          const key = `${orgId}:${hour}`;
          let row = hourly.get(key);
          if (row === undefined) {
            row = {
              org_id: orgId,
              hour: new Date(hour),
              visitors: 0,
              new_visitors: 0,
              pageviews: 0,
              visits: 0,
              bounces: 0,
              duration_s: 0,
              events: 0,
            };
            hourly.set(key, row);
          }
          return row;
        };
        for (const h of hits) {
          let v = latest.get(h.visitor);
          const open = v !== undefined && h.at - v.last_seen_at.getTime() < VISIT_GAP_MS;
          if (h.hit.link !== undefined) {
            if (v !== undefined && open)
              links.push({ row: { org_id: orgId, ref: h.hit.link, at: new Date(h.at) }, visit: v });
            continue;
          }
          const b = bucket(h.at);
          if (h.hit.name === 'pageview') {
            if (v === undefined) {
              b.new_visitors++;
              b.visitors++;
            } else if (hourOf(v.last_seen_at.getTime()) !== hourOf(h.at)) b.visitors++;
            b.pageviews++;
            if (v === undefined || !open) {
              v = {
                id: 0,
                org_id: orgId,
                visitor: h.visitor,
                started_at: new Date(h.at),
                last_seen_at: new Date(h.at),
                pageviews: 1,
                events: 0,
                entry_path: h.path,
                source: h.utm.source ?? h.referrerHost ?? 'direct',
                referrer_host: h.referrerHost,
                utm_source: h.utm.source,
                utm_medium: h.utm.medium,
                utm_campaign: h.utm.campaign,
                orders: 0,
              };
              fresh.push(v);
              latest.set(h.visitor, v);
              b.visits++;
              b.bounces++;
            } else {
              const start = bucket(v.started_at.getTime());
              if (v.pageviews === 1) start.bounces--;
              start.duration_s += Math.round((h.at - v.last_seen_at.getTime()) / 1000);
              v.pageviews++;
              v.last_seen_at = new Date(h.at);
              if (v.id !== 0) touched.set(v.id, v);
            }
          } else {
            b.events++;
            if (v !== undefined && open) {
              const start = bucket(v.started_at.getTime());
              start.duration_s += Math.round((h.at - v.last_seen_at.getTime()) / 1000);
              v.events++;
              v.last_seen_at = new Date(h.at);
              if (v.id !== 0) touched.set(v.id, v);
            }
          }
          events.push({
            org_id: orgId,
            at: new Date(h.at),
            visitor: h.visitor,
            visit_id: null,
            name: h.hit.name,
            path: h.path,
            referrer_host: h.referrerHost,
            utm_source: h.utm.source,
            utm_medium: h.utm.medium,
            utm_campaign: h.utm.campaign,
            screen_width: h.hit.screenWidth ?? null,
            props: h.hit.props === undefined ? null : JSON.stringify(h.hit.props),
          });
          // The event's visit, read once the new visits have their ids.
          eventVisits.push(open || h.hit.name === 'pageview' ? v : undefined);
        }
      }
      const ids = await repo.nextVisitIds(fresh.length);
      fresh.forEach((v, i) => (v.id = ids[i]!));
      events.forEach((e, i) => (e.visit_id = eventVisits[i]?.id ?? null));
      await repo.upsertVisits([...fresh, ...touched.values()]);
      await repo.insertEvents(events);
      await repo.addHourly([...hourly.values()]);
      await repo.addDaily([...hourly.values()]);
      // One link per reference: the latest of the batch.
      const byRef = new Map<string, AnalyticsLinkRow>();
      for (const l of links) byRef.set(`${l.row.org_id}:${l.row.ref}`, { ...l.row, visit_id: l.visit.id });
      await repo.upsertLinks([...byRef.values()]);
    });
  }
}
