/** What the edge counts, read by its node role for the metrics endpoint (plain numbers: no allocation per event). */
export class EdgeCounters {
  /** edge_connections_total{result}: routed, status, legacy_status, unknown_host, refused_login, rate_limited, too_many, malformed, upstream_unreachable. */
  readonly connections = new Map<string, number>();
  /** edge_status_cache_total{result}: hit, miss, stale. */
  readonly statusCache = { hit: 0, miss: 0, stale: 0 };
  /** edge_bytes_total{direction}: from players (in) and to them (out), of piped connections. */
  readonly bytes = { in: 0, out: 0 };
  active = 0;
  /** Status exchanges the native listener answered (counted in `connections` as `status` too). */
  nativeAnswers = 0;

  connection(result: string): void {
    this.connections.set(result, (this.connections.get(result) ?? 0) + 1);
  }
}
