import type { Unsubscribe } from '../../kernel/events/domain-events.ts';
import type { Logger } from '../../kernel/log/logger.ts';
import type { GameproxyPublishing, PublishedGameRoute } from '../../modules/gameproxy/index.ts';
import { settledWithin, START_DATABASE_WAIT_MS } from '../shared/start-wait.ts';

export interface EdgeRouteSyncOptions {
  /** Told every route set loaded from the database (the snapshot file). */
  readonly mirror?: { replaceAll(routes: readonly PublishedGameRoute[]): void };
  /** The routes last known, when the database does not answer at start (the snapshot file). */
  readonly fallback?: () => Promise<readonly PublishedGameRoute[] | null>;
  /** How long start waits for the database before the fallback serves (START_DATABASE_WAIT_MS). */
  readonly startWaitMs?: number;
  /** Reload period while everything is up: a lost change event only delays (ms). */
  readonly resyncMs?: number;
  /** Reload period while the database could not be read (ms). */
  readonly degradedResyncMs?: number;
  /** Events that come close together make one reload (ms). */
  readonly debounceMs?: number;
}

const RESYNC_MS = 30_000;
const DEGRADED_RESYNC_MS = 5_000;
const DEBOUNCE_MS = 10;

/**
 * Keeps an edge node's routes current: every route at start (the snapshot file's when the
 * database does not answer in time), then the whole set again on each routes-changed event
 * (debounced) and on a timer. Loads run one at a time; a change during a load makes one more.
 */
export class EdgeRouteSync {
  private unsubscribe: Unsubscribe | null = null;
  private chain: Promise<boolean> = Promise.resolve(true);
  private queued: Promise<boolean> | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly source: GameproxyPublishing,
    /** Serves a route set (builds the table and hands it to the server). */
    private readonly apply: (routes: readonly PublishedGameRoute[]) => void,
    private readonly log: Logger,
    private readonly options: EdgeRouteSyncOptions = {},
  ) {}

  /** true while the routes served are not confirmed by the database (it could not be read). */
  get degraded(): boolean {
    return this.failing;
  }

  /** Resolves with where the first routes came from, once they are applied. */
  async start(): Promise<'database' | 'fallback' | 'none'> {
    // Subscribe first: a change committed while the first load runs is then loaded after it.
    this.unsubscribe = await this.source.onRoutesChanged(() => this.changed());
    const loading = this.source.routes();
    const outcome = await settledWithin(loading, this.options.startWaitMs ?? START_DATABASE_WAIT_MS);
    this.schedule();
    if (outcome !== 'late' && 'value' in outcome) {
      this.loaded(outcome.value);
      return 'database';
    }
    this.failing = true;
    const err = outcome === 'late' ? 'no answer within the start wait' : outcome.error;
    // A late answer is still taken: the reloads that follow wait for it.
    if (outcome === 'late')
      this.chain = loading.then(
        (routes) => this.taken(routes),
        () => false,
      );
    const saved = await this.options.fallback?.().catch(() => null);
    if (saved === undefined || saved === null) {
      this.log.warn({ err }, 'database unreachable and no edge snapshot file: no routes yet');
      this.apply([]);
      return 'none';
    }
    this.log.warn({ err, routes: saved.length }, 'database unreachable: routing from the snapshot file');
    this.apply(saved);
    return 'fallback';
  }

  /** Loads every route now (after the load in flight, if any); answers whether the database answered. */
  reload(): Promise<boolean> {
    // A load not begun yet will read this change too.
    if (this.queued !== null) return this.queued;
    const next = this.chain.then(() => {
      this.queued = null;
      return this.loadOnce();
    });
    this.queued = next;
    this.chain = next;
    return next;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.debounce !== null) clearTimeout(this.debounce);
    if (this.timer !== null) clearTimeout(this.timer);
    await this.unsubscribe?.().catch(() => undefined);
    // A database that never answers must not hold the shutdown.
    await settledWithin(this.chain, 1_000);
  }

  private changed(): void {
    if (this.stopped || this.debounce !== null) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      void this.reload();
    }, this.options.debounceMs ?? DEBOUNCE_MS);
  }

  private schedule(): void {
    if (this.stopped) return;
    const ms = this.failing
      ? (this.options.degradedResyncMs ?? DEGRADED_RESYNC_MS)
      : (this.options.resyncMs ?? RESYNC_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.reload().finally(() => this.schedule());
    }, ms);
    this.timer.unref();
  }

  private async loadOnce(): Promise<boolean> {
    if (this.stopped) return false;
    try {
      return this.taken(await this.source.routes());
    } catch (error) {
      if (!this.failing) this.log.warn({ err: error }, 'edge routes not reloaded: serving the routes held');
      this.failing = true;
      return false;
    }
  }

  /** A load that answered: served, unless the sync stopped meanwhile. */
  private taken(routes: readonly PublishedGameRoute[]): boolean {
    if (this.stopped) return false;
    if (this.failing)
      this.log.info({ routes: routes.length }, 'database reachable again: edge routes reloaded');
    this.failing = false;
    this.loaded(routes);
    return true;
  }

  private loaded(routes: readonly PublishedGameRoute[]): void {
    this.apply(routes);
    this.options.mirror?.replaceAll(routes);
  }
}
