import type { Bus } from '../kernel/bus/bus.ts';
import type { Logger } from '../kernel/log/logger.ts';
import type { ZoneStore } from '../dns/zone/zone-store.ts';
import {
  ZONE_CHANGED_CHANNEL,
  type ZoneChangedEvent,
  type ZoneData,
  type ZoneSource,
} from '../dns/zone/zone-data.ts';

/** Something fed the same zones as the store, in the same order (zone transfers' side map). */
export interface ZoneMirror {
  replaceAll(zones: readonly ZoneData[]): void;
  upsert(zone: ZoneData): void;
  remove(zoneId: number): void;
}

/**
 * Keeps a ZoneStore in step with the database: everything at start, then one zone per
 * zone-changed event. Reloads of one zone run one after another, so an older load can never
 * overwrite a newer one.
 */
export class ZoneSync {
  private readonly chains = new Map<number, Promise<void>>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly store: ZoneStore,
    private readonly source: ZoneSource,
    private readonly bus: Bus,
    private readonly log: Logger,
    private readonly mirror: ZoneMirror | null = null,
  ) {}

  async start(): Promise<void> {
    // Subscribe first: a change committed while the full load runs is then reloaded after it.
    this.unsubscribe = await this.bus.subscribe(ZONE_CHANGED_CHANNEL, (m) =>
      this.onEvent(m as ZoneChangedEvent),
    );
    const started = Date.now();
    const zones = await this.source.loadAll();
    this.store.replaceAll(zones);
    this.mirror?.replaceAll(zones);
    this.log.info({ zones: this.store.size, ms: Date.now() - started }, 'zones loaded');
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    await Promise.allSettled([...this.chains.values()]);
  }

  /** Resolves once every reload queued so far has been applied (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
  }

  private onEvent(event: ZoneChangedEvent): void {
    if (typeof event?.zoneId !== 'number') return;
    const previous = this.chains.get(event.zoneId) ?? Promise.resolve();
    const next = previous
      .then(() => this.reload(event))
      .catch((error: unknown) => {
        this.log.error({ err: error, zoneId: event.zoneId }, 'zone reload failed');
      });
    this.chains.set(event.zoneId, next);
    void next.finally(() => {
      if (this.chains.get(event.zoneId) === next) this.chains.delete(event.zoneId);
    });
  }

  private async reload(event: ZoneChangedEvent): Promise<void> {
    const zone = event.deleted ? null : await this.source.load(event.zoneId);
    if (zone === null) {
      this.store.remove(event.zoneId);
      this.mirror?.remove(event.zoneId);
    } else {
      this.store.upsert(zone);
      this.mirror?.upsert(zone);
    }
  }
}
