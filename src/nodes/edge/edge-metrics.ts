import type { EdgeCounters } from '../../edge/index.ts';
import type { MetricsRegistry } from '../../kernel/metrics/metrics-registry.ts';

/** Exposes the edge's counters (read at scrape time) and its route table's size in the registry. */
export function registerEdgeMetrics(
  registry: MetricsRegistry,
  counters: () => EdgeCounters | null,
  routeCount: () => number,
): void {
  const connections = registry.counter(
    'edge_connections_total',
    'Player connections by outcome (routed, status, legacy_status, unknown_host, refused_login, rate_limited, ' +
      'too_many, malformed, upstream_unreachable).',
    ['result'],
  );
  const active = registry.gauge('edge_active_connections', 'Player connections open now.');
  const cache = registry.counter(
    'edge_status_cache_total',
    'Server list answers by status cache result (hit, miss, stale).',
    ['result'],
  );
  const bytes = registry.counter(
    'edge_bytes_total',
    'Bytes piped between players and upstreams, by direction (in: from players, out: to them).',
    ['direction'],
  );
  const routes = registry.gauge('edge_route_table_routes', 'Routes in the edge’s route table.');
  registry.onCollect(() => {
    const c = counters();
    routes.set(routeCount());
    if (c === null) return;
    for (const [result, n] of c.connections) connections.set(n, { result });
    active.set(c.active);
    for (const result of ['hit', 'miss', 'stale'] as const) cache.set(c.statusCache[result], { result });
    bytes.set(c.bytes.in, { direction: 'in' });
    bytes.set(c.bytes.out, { direction: 'out' });
  });
}
