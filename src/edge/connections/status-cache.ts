/**
 * Upstreams' status answers per route and client protocol: fresh for the route's
 * `status_cache_ttl_seconds`, and kept after that as the last real answer, which the edge serves
 * while the upstream is down. Bounded: past `maxEntries` the oldest entry goes.
 */
import type { ServerStatus } from '../routes/status-answer.ts';

export type CacheResult = 'hit' | 'miss' | 'stale';

interface Entry {
  readonly status: ServerStatus;
  readonly at: number;
}

export class StatusCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 50_000) {}

  private static key(routeId: number, protocol: number): string {
    return `${routeId}:${protocol}`;
  }

  /** The answer kept for the route and protocol, and whether it is still fresh at `now`. */
  get(
    routeId: number,
    protocol: number,
    ttlSeconds: number,
    now: number,
  ): { status: ServerStatus; fresh: boolean } | null {
    const e = this.entries.get(StatusCache.key(routeId, protocol));
    if (e === undefined) return null;
    return { status: e.status, fresh: now - e.at < ttlSeconds * 1000 };
  }

  /** The upstream answered: its status is the fresh one, and the last real one. */
  put(routeId: number, protocol: number, status: ServerStatus, now: number): void {
    const key = StatusCache.key(routeId, protocol);
    this.entries.delete(key);
    this.entries.set(key, { status, at: now });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** A route that is gone takes its answers with it. */
  forgetRoute(routeId: number): void {
    const prefix = `${routeId}:`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
