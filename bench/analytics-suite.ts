/**
 * Storefront analytics under load (autocannon in a process of its own), the server in this one,
 * into PostgreSQL when DATABASE_URL is set (the embedded database otherwise):
 *
 * ingest: POST /api/v1/t/{site_key} page views from 65,536 client addresses (X-Forwarded-For with
 *   TRUST_PROXY), each address well under its 10 a second, in rounds; the figure is the median of
 *   the rounds' hits answered 202 a second, checked against the page views the rollups hold once
 *   the buffer is written.
 * year: GET .../tracking/stats over 365 days (daily, from a year of daily rollups) beside
 *   GET /api/v1/locations (a trivial public route) in the same run, in rounds: the median of the
 *   rounds' mean latency ratios.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { tablesOf } from '../src/kernel/runtime/runtime.ts';
import { startTestApp } from '../src/testing/test-app.ts';
import type { LoadOptions, LoadSummary } from './autocannon-child.ts';
import { median } from './bench-stats.ts';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'autocannon-child.ts');

/** autocannon in a process of its own (autocannon-child.ts): the server keeps its core. */
function load(options: LoadOptions): Promise<LoadSummary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve(m as LoadSummary));
    child.once('exit', (code) => reject(new Error(`the load generator exited ${code} without a summary`)));
  });
}

export interface AnalyticsResult {
  readonly backend: 'postgres' | 'embedded';
  readonly ingest: {
    readonly seconds: number;
    readonly accepted: number;
    readonly non2xx: number;
    readonly stored: number;
    /** At most this many hits were in flight when the rounds stopped (a connection's one each). */
    readonly inFlightAtStops: number;
    /** Hits answered a second, per round. */
    readonly rounds: readonly number[];
    /** Their median. */
    readonly eventsPerSecond: number;
    readonly p99Ms: number;
  };
  readonly year: {
    readonly statsMeanMs: number;
    readonly locationsMeanMs: number;
    /** Per round: stats ÷ locations mean latency. */
    readonly ratios: readonly number[];
    /** Their median (target ≤ 3). */
    readonly ratio: number;
    readonly statsRps: number;
    readonly locationsRps: number;
  };
}

const HOUR_MS = 3_600_000;

export async function runAnalytics(
  options: { seconds: number; connections: number; rounds: number },
  log: (line: string) => void,
): Promise<AnalyticsResult> {
  const t = await startTestApp({
    env: {
      LOG_LEVEL: 'silent',
      TRUST_PROXY: 'true',
      ROLE: 'api',
      // The reading client (127.0.0.1) is exempt from the per-address limits, as an office is;
      // the page views come from 65,536 other addresses, each within its 10 a second.
      LIMITS_EXEMPT: '127.0.0.0/8,::1',
    },
  });
  try {
    const { token } = await t.signUp();
    await t.request('POST', '/api/v1/orgs', { token, body: { slug: 'bench-shop', name: 'Bench shop' } });
    const script = await t.request('GET', '/api/v1/orgs/bench-shop/tracking/script');
    const key = /var key = "([^"]+)"/.exec(script.text)![1]!;
    const today = new Date().toISOString().slice(0, 10);
    const stored = async (): Promise<number> =>
      (
        (await t.request(
          'GET',
          `/api/v1/orgs/bench-shop/tracking/stats?start_date=${today}&end_date=${today}`,
          {
            token,
          },
        )) as { body: { totals: { pageviews: number } } }
      ).body.totals.pageviews;

    log(
      `analytics: ingestion, ${options.rounds} rounds of ${options.seconds} s, ${options.connections} connections`,
    );
    const rounds: number[] = [];
    let accepted = 0;
    let seconds = 0;
    let non2xx = 0;
    let p99Ms = 0;
    for (let round = 1; round <= options.rounds; round++) {
      const ingest = await load({
        url: `${t.url}/api/v1/t/${key}`,
        connections: options.connections,
        seconds: options.seconds,
        method: 'POST',
        body: JSON.stringify({
          name: 'pageview',
          url: 'https://shop.example/products/1',
          screen_width: 1280,
        }),
        headers: { 'content-type': 'application/json' },
        vary: true,
      });
      rounds.push(ingest.ok / ingest.seconds);
      accepted += ingest.ok;
      seconds += ingest.seconds;
      non2xx += ingest.non2xx;
      p99Ms = Math.max(p99Ms, ingest.latencyP99Ms);
      log(`analytics: round ${round}: ${Math.round(ingest.ok / ingest.seconds)} hits a second`);
    }
    const storedCount = await stored();
    const eventsPerSecond = median(rounds);
    log(
      `analytics: ${accepted} accepted (median ${Math.round(eventsPerSecond)}/s), ${storedCount} stored, ${non2xx} refused`,
    );

    // A year of hourly rollups for the organization, as a year of ingestion would leave them.
    const org = await t.request('GET', '/api/v1/orgs/bench-shop', { token });
    const orgId = Number((org.body as { id: number }).id);
    const db = tablesOf<Record<string, never>>(t.node.runtime);
    const end = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const start = end - 365 * 24 * HOUR_MS;
    for (let h0 = start; h0 < end; h0 += 1000 * HOUR_MS) {
      const values = [];
      for (let h = h0; h < Math.min(end, h0 + 1000 * HOUR_MS); h += HOUR_MS)
        values.push(sql`(${orgId}, ${new Date(h)}, 5, 3, 20, 6, 2, 600, 1)`);
      await sql`INSERT INTO analytics_hourly
        (org_id, hour, visitors, new_visitors, pageviews, visits, bounces, duration_s, events)
        VALUES ${sql.join(values)} ON CONFLICT DO NOTHING`.execute(db);
    }
    // And their sums by day, as ingestion writes them beside the hours.
    const days = [];
    for (let d = start; d < end; d += 24 * HOUR_MS)
      days.push(
        sql`(${orgId}, ${new Date(d).toISOString().slice(0, 10)}::date, 72, 480, 144, 48, 14400, 24)`,
      );
    await sql`INSERT INTO analytics_daily (org_id, day, visitors, pageviews, visits, bounces, duration_s, events)
      VALUES ${sql.join(days)} ON CONFLICT DO NOTHING`.execute(db);
    const from = new Date(start).toISOString().slice(0, 10);
    const to = new Date(end - 1).toISOString().slice(0, 10);
    const statsUrl = `${t.url}/api/v1/orgs/bench-shop/tracking/stats?start_date=${from}&end_date=${to}`;
    const began = performance.now();
    const check = await t.request('GET', statsUrl.slice(t.url.length), { token });
    log(
      `analytics: one year of stats answered ${check.status} in ${(performance.now() - began).toFixed(1)} ms`,
    );
    if ((check.body as { results: unknown[] }).results.length < 365)
      throw new Error('a year of stats expected');
    const run = (url: string, headers: Record<string, string>) =>
      load({ url, connections: 8, seconds: Math.max(3, Math.round(options.seconds / 2)), headers });
    log('analytics: a year of daily stats beside GET /api/v1/locations');
    // Per round: /locations, the stats, /locations again; the stats against the mean of the two.
    const pairs: { stats: LoadSummary; locationsMeanMs: number; locationsRps: number }[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      const before = await run(`${t.url}/api/v1/locations`, {});
      const stats = await run(statsUrl, { authorization: `Bearer ${token}` });
      const after = await run(`${t.url}/api/v1/locations`, {});
      if (stats.non2xx > 0 || stats.total === 0 || stats.errors > 0)
        throw new Error(`stats: ${stats.total} answered, ${stats.non2xx} refused, ${stats.errors} errors`);
      const locationsMeanMs = (before.latencyMeanMs + after.latencyMeanMs) / 2;
      pairs.push({
        stats,
        locationsMeanMs,
        locationsRps: (before.requestsPerSecond + after.requestsPerSecond) / 2,
      });
      log(
        `analytics: round ${round}: stats ÷ locations ${(stats.latencyMeanMs / locationsMeanMs).toFixed(2)}`,
      );
    }
    const ratios = pairs.map((p) => p.stats.latencyMeanMs / p.locationsMeanMs);
    return {
      backend: t.databaseSchema === undefined ? 'embedded' : 'postgres',
      ingest: {
        seconds,
        accepted,
        non2xx,
        stored: storedCount,
        inFlightAtStops: options.rounds * options.connections,
        rounds,
        eventsPerSecond,
        p99Ms,
      },
      year: {
        statsMeanMs: median(pairs.map((p) => p.stats.latencyMeanMs)),
        locationsMeanMs: median(pairs.map((p) => p.locationsMeanMs)),
        ratios,
        ratio: median(ratios),
        statsRps: median(pairs.map((p) => p.stats.requestsPerSecond)),
        locationsRps: median(pairs.map((p) => p.locationsRps)),
      },
    };
  } finally {
    await t.close();
  }
}
