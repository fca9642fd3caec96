import {
  BUS_LAG_BUCKETS_S,
  LATENCY_BUCKETS_S,
  LATENCY_SAMPLE_EVERY,
  RCODE_SLOTS,
  TRANSPORTS,
  ZONE_CLASSES,
  queryIndex,
  lbAnswerLabels,
  type DnsCounters,
} from '../../dns/index.ts';
import { rcodeToText } from '../../dns/index.ts';
import type { MetricsRegistry } from '../../kernel/metrics/metrics-registry.ts';

/** Exposes the data plane's counters (read at scrape time) and the store size in the registry. */
export function registerDnsMetrics(
  registry: MetricsRegistry,
  counters: DnsCounters,
  zoneCount: () => number,
): void {
  const queries = registry.counter(
    'dns_queries_total',
    'DNS queries answered, by zone class (served: a zone of ours; none), RCODE and transport.',
    ['zone', 'rcode', 'transport'],
  );
  const latency = registry.histogram(
    'dns_query_duration_seconds',
    `Handler time of one query, sampled (1 query in ${LATENCY_SAMPLE_EVERY}).`,
    LATENCY_BUCKETS_S,
  );
  const rrl = registry.counter('dns_rrl_responses_total', 'Responses held back by RRL, by action.', [
    'action',
  ]);
  const zones = registry.gauge('dns_zones_loaded', 'Zones in the serving store.');
  const age = registry.gauge(
    'dns_snapshot_age_seconds',
    'Seconds since the last zone change was applied to the serving store.',
  );
  const build = registry.gauge(
    'dns_snapshot_build_seconds',
    'Seconds the last zone change (full load or one zone) took to build into the store.',
  );
  const busLag = registry.histogram(
    'dns_bus_lag_seconds',
    'Time from the publication of a zone-changed event (API node clock) to its arrival here.',
    BUS_LAG_BUCKETS_S,
  );
  const reloads = registry.counter(
    'dns_zone_reloads_total',
    'Zone changes applied: to the names a record change touched (scope="names"), or by reloading the zone whole.',
    ['scope'],
  );
  const lbAnswers = registry.counter(
    'dns_lb_answers_total',
    'Answers at load balancers’ hostnames, by zone, load balancer hostname, cascade stage that answered ' +
      '(cascade_hit: location, country, region, default, proximity, fallback, serve_last, none) and reason ' +
      '(ok, all_unhealthy_serve_last = fail-open, all_unhealthy, no_members, load_balancer_disabled).',
    ['zone', 'lb', 'cascade_hit', 'reason'],
  );
  const cache = registry.counter(
    'dns_answer_cache_lookups_total',
    'Queries (UDP and TCP) looked up in the answer cache (DNS_ANSWER_CACHE_MB), by result (hit, miss; skipped: not looked up while too few lookups hit).',
    ['result'],
  );
  const cacheStores = registry.counter(
    'dns_answer_cache_stores_total',
    'Answers stored in the answer cache.',
  );
  const cacheBound = registry.gauge(
    'dns_answer_cache_bound_bytes',
    'Memory bound of the answer caches (ring and index), bytes, summed over DNS processes.',
  );
  registry.onCollect(() => {
    for (const [key, n] of Object.entries(counters.lbAnswers.snapshot()))
      lbAnswers.set(n, lbAnswerLabels(key));
    for (let z = 0; z < ZONE_CLASSES.length; z++) {
      for (let t = 0; t < TRANSPORTS.length; t++) {
        for (let r = 0; r < RCODE_SLOTS; r++) {
          const n = counters.queries[queryIndex(z, t, r)]!;
          if (n === 0) continue;
          queries.set(n, { zone: ZONE_CLASSES[z]!, rcode: rcodeToText(r), transport: TRANSPORTS[t]! });
        }
      }
    }
    latency.load(counters.latency, counters.latencySumS);
    busLag.load(counters.busLag, counters.busLagSumS);
    reloads.set(counters.zoneReloadsNames, { scope: 'names' });
    reloads.set(counters.zoneReloadsWhole, { scope: 'zone' });
    rrl.set(counters.rrlDrops, { action: 'drop' });
    rrl.set(counters.rrlSlips, { action: 'slip' });
    cache.set(counters.answerCacheHits, { result: 'hit' });
    cache.set(counters.answerCacheMisses, { result: 'miss' });
    cache.set(counters.answerCacheSkips, { result: 'skipped' });
    cacheStores.set(counters.answerCacheStores);
    cacheBound.set(counters.answerCacheBoundBytes);
    zones.set(zoneCount());
    age.set(counters.lastStoreChangeMs === 0 ? 0 : (Date.now() - counters.lastStoreChangeMs) / 1000);
    build.set(counters.lastStoreBuildS);
  });
}
