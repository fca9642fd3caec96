/**
 * Publish/subscribe of change events, counters and short locks.
 * Redis when REDIS_URL is set, an in-process implementation otherwise; callers see only this.
 */
export type BusHandler = (message: unknown) => void;

export interface Bus {
  /** Delivers `message` (JSON-serialisable) to every subscriber of `channel`, in every process. */
  publish(channel: string, message: unknown): Promise<void>;
  /** Returns a function that removes the subscription. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;

  /** Adds `by` to each field of the hash `key`; the key expires `ttlSeconds` after its last change. */
  incrementCounters(key: string, fields: Record<string, number>, ttlSeconds: number): Promise<void>;
  /** Reads every field of the hash `key` (empty when absent). */
  readCounters(key: string): Promise<Record<string, number>>;

  /**
   * Sliding-window rate counting: records one event at `nowMs` under `key` unless `limit` events
   * already fall inside (nowMs - windowMs, nowMs]. Answers whether it was recorded and, when not,
   * how many ms until the oldest counted event leaves the window.
   */
  slidingWindowHit(key: string, nowMs: number, windowMs: number, limit: number): Promise<WindowResult>;
  /** Counts events inside the window without recording one. */
  slidingWindowCount(key: string, nowMs: number, windowMs: number): Promise<WindowResult>;
  /** Records one event without checking the limit. */
  slidingWindowRecord(key: string, nowMs: number, windowMs: number): Promise<void>;

  /** Takes `key` for `ttlMs` if nobody holds it; answers whether this caller got it. */
  tryLock(key: string, ttlMs: number): Promise<boolean>;
  unlock(key: string): Promise<void>;

  close(): Promise<void>;

  /** false while subscriptions cannot receive (connection lost); absent: always live. */
  subscriptionsLive?(): boolean;
  /** Whether the bus's server answers now (Redis connected); an in-process bus always does. */
  reachable?(): boolean;
}

export interface WindowResult {
  readonly allowed: boolean;
  /** Events inside the window: exact for a count; for a hit, at most the limit (Redis skips the trim below it). */
  readonly count: number;
  /** ms until the oldest counted event is `windowMs` old (0 when the window is empty). */
  readonly retryAfterMs: number;
}
