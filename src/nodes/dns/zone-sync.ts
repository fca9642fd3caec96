import type { Unsubscribe } from '../../kernel/events/domain-events.ts';
import type { Logger } from '../../kernel/log/logger.ts';
import type { ZoneStore } from '../../dns/index.ts';
import { applyNamesChange } from '../../dns/index.ts';
import { collectAfterLoad } from '../shared/load-garbage.ts';
import {
  type ZoneChangedEvent,
  type ZoneData,
  type ZoneNamesData,
  type ZoneSource,
} from '../../dns/index.ts';

/** A change to more names than this reloads the zone whole (patching scans every name anyway). */
export const MAX_PATCH_NAMES = 64;

import { settledWithin, START_DATABASE_WAIT_MS } from '../shared/start-wait.ts';

export { settledWithin, START_DATABASE_WAIT_MS };

/**
 * Something fed the same zones as the store, in the same order (zone transfers' side map, the
 * snapshot file). A mirror that needs a zone's records keeps them itself, in the form it needs:
 * the sync keeps none past a build.
 */
export interface ZoneMirror {
  replaceAll(zones: readonly ZoneData[]): void;
  upsert(zone: ZoneData): void;
  /**
   * The zone `zoneId` changed at `names` only (see applyNamesChange): their records are now those
   * of `part`, and its SOA `part.soa`. Zone settings are unchanged.
   */
  applyNames(zoneId: number, part: ZoneNamesData, names: readonly string[]): void;
  remove(zoneId: number): void;
}

/**
 * What the sync keeps of a served zone: its settings and its apex records, enough to patch the
 * store (ZoneStore.patch reads the apex and the changed names only). The other records live in the
 * compiled snapshot alone; at a million records, keeping them beside it doubled the memory.
 */
function zoneHead(zone: ZoneData): ZoneData {
  // RDATA copied: read from the snapshot file it is a view of the whole file's bytes, kept alive by it.
  const apex = zone.records
    .filter((r) => r.name === zone.domain)
    .map((r) => ({ ...r, rdata: r.rdata.slice() }));
  // A packed zone's records are the snapshot's: the head patches from is its apex alone.
  const { packed: _packed, ...head } = zone;
  return { ...head, records: apex };
}

export interface ZoneSyncOptions {
  /** Each zone's serial in the database (zone id → serial): what the periodic resync compares. */
  readonly serials?: () => Promise<ReadonlyMap<number, number>>;
  /** The last zones known to be served, used when the database cannot be read at start. */
  readonly fallback?: () => Promise<readonly ZoneData[] | null>;
  /** false while change events cannot arrive (bus disconnected): resync at the degraded pace. */
  readonly busLive?: () => boolean;
  /** Resync period while everything is up (ms). */
  readonly resyncMs?: number;
  /** Resync period while the database or the bus is down, and once after they return (ms). */
  readonly degradedResyncMs?: number;
  /** Seconds from an event's publication to its arrival here (events that carry the time). */
  readonly observeBusLag?: (seconds: number) => void;
  /** One zone change applied: to the names it touched only, or by reloading the zone whole. */
  readonly onZoneReload?: (scope: 'names' | 'zone') => void;
  /** How long start waits for the database while `fallback` has zones (START_DATABASE_WAIT_MS). */
  readonly startWaitMs?: number;
}

/**
 * Keeps a ZoneStore in step with the database: everything at start, then one zone per
 * zone-changed event. Reloads of one zone run one after another, so an older load can never
 * overwrite a newer one.
 *
 * Outages: nothing here throws out of the process. When the database cannot be read, the zones
 * served stay as they are (or come from `fallback` at start); a periodic resync compares serials
 * and reloads what changed, so changes whose events were lost (bus down) are served anyway.
 */
export class ZoneSync {
  private readonly chains = new Map<number, Promise<void>>();
  private readonly mirrors: readonly ZoneMirror[];
  private unsubscribe: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** The served zones did not come from the database (fallback): reload them all once it answers. */
  private needsFullLoad = false;
  private dbFailing = false;
  private wasDegraded = false;
  private resyncing: Promise<void> | null = null;
  private reloadFailures = 0;
  private lastResync = Date.now();
  /** Serial of each zone served (the store keeps compiled zones only). */
  private readonly served = new Map<number, number>();
  /** Each served zone's head (zoneHead): a change to a few names is applied to it (reloadNames). */
  private readonly heads = new Map<number, ZoneData>();

  constructor(
    private readonly store: ZoneStore,
    private readonly source: ZoneSource,
    /** Subscribes to the zone-changed events (kept apart from the bus so tests can drive it). */
    private readonly subscribe: (handler: (event: ZoneChangedEvent) => void) => Promise<Unsubscribe>,
    private readonly log: Logger,
    mirror: ZoneMirror | readonly ZoneMirror[] | null = null,
    private readonly options: ZoneSyncOptions = {},
  ) {
    this.mirrors = mirror === null ? [] : Array.isArray(mirror) ? mirror : [mirror as ZoneMirror];
  }

  /** true while serving zones the database could not confirm (it is unreachable). */
  get degraded(): boolean {
    return this.dbFailing || this.needsFullLoad || this.options.busLive?.() === false;
  }

  async start(): Promise<void> {
    // Subscribe first: a change committed while the full load runs is then reloaded after it.
    this.unsubscribe = await this.subscribe((event) => this.onEvent(event));
    const started = Date.now();
    const loading = this.source.loadAll();
    // With a snapshot file to serve, the database gets a short while only; the read goes on.
    const outcome = this.options.fallback
      ? await settledWithin(loading, this.options.startWaitMs ?? START_DATABASE_WAIT_MS)
      : { value: await loading };
    let zones: readonly ZoneData[];
    if (outcome !== 'late' && 'value' in outcome) {
      zones = outcome.value;
    } else {
      const saved = this.options.fallback ? await this.options.fallback() : null;
      if (saved === null)
        zones = await loading; // nothing else to serve: wait for the database
      else {
        const err = outcome === 'late' ? 'no answer within the start wait' : outcome.error;
        this.log.warn({ err, zones: saved.length }, 'database unreachable: serving the snapshot file');
        zones = saved;
        this.needsFullLoad = true;
        this.dbFailing = true;
        if (outcome === 'late') this.takeLateLoad(loading);
      }
    }
    this.replaceAll(zones);
    this.log.info({ zones: this.store.size, ms: Date.now() - started }, 'zones loaded');
    if (this.options.serials) this.schedule();
  }

  /**
   * The start-up read that outlasted the start wait: applied when it arrives (as the resync in
   * flight, so no other full load runs beside it), unless the served zones came from the database
   * meanwhile. A failure leaves it to the periodic resync.
   */
  private takeLateLoad(loading: Promise<readonly ZoneData[]>): void {
    this.resyncing = loading
      .then(
        (zones) => {
          if (this.stopped || !this.needsFullLoad) return;
          this.replaceAll(zones);
          this.needsFullLoad = false;
          this.dbFailing = false;
          this.log.info({ zones: zones.length }, 'zones reloaded from the database');
        },
        () => undefined,
      )
      .finally(() => {
        this.resyncing = null;
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.unsubscribe?.().catch(() => undefined);
    await this.resyncing;
    await Promise.allSettled([...this.chains.values()]);
  }

  /** Resolves once every reload queued so far has been applied (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
  }

  /**
   * Brings the store in line with the database now: everything when the served zones came from
   * elsewhere, else the zones whose serial differs, the new ones and the deleted ones. Answers
   * whether the database could be read.
   */
  async resync(): Promise<boolean> {
    if (this.resyncing === null) {
      this.resyncing = this.runResync().finally(() => {
        this.resyncing = null;
      });
    }
    await this.resyncing;
    return !this.dbFailing;
  }

  private async runResync(): Promise<void> {
    try {
      if (this.needsFullLoad) {
        const zones = await this.source.loadAll();
        this.replaceAll(zones);
        this.needsFullLoad = false;
        this.log.info({ zones: zones.length }, 'zones reloaded from the database');
      } else if (this.options.serials) {
        const serials = await this.options.serials();
        const failures = this.reloadFailures;
        for (const [id, serial] of serials) {
          if (this.served.get(id) !== serial) this.enqueue(id, false);
        }
        for (const id of [...this.served.keys()]) if (!serials.has(id)) this.enqueue(id, true);
        await this.settled();
        if (this.reloadFailures !== failures) throw new Error('zone reloads failed during resync');
      }
      if (this.dbFailing) this.log.info('database reachable again: zones resynchronised');
      this.dbFailing = false;
    } catch (error) {
      if (!this.dbFailing) this.log.warn({ err: error }, 'zone resync failed: serving the zones held');
      this.dbFailing = true;
    }
  }

  /*
   * Ticks at the degraded pace and resyncs when degraded (or just after), else once per resyncMs:
   * an outage noticed between two full periods is then acted on within degradedResyncMs.
   */
  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      const degraded = this.degraded;
      // One more quick round after an outage: events may have been lost until the bus resubscribed.
      const due =
        degraded || this.wasDegraded || Date.now() - this.lastResync >= (this.options.resyncMs ?? 60_000);
      this.wasDegraded = degraded;
      if (!due) return this.schedule();
      this.lastResync = Date.now();
      void this.resync().finally(() => this.schedule());
    }, this.options.degradedResyncMs ?? 5000);
    this.timer.unref();
  }

  private replaceAll(zones: readonly ZoneData[]): void {
    this.store.replaceAll(zones);
    this.served.clear();
    this.heads.clear();
    for (const z of zones) {
      this.served.set(z.id, z.serial);
      this.heads.set(z.id, zoneHead(z));
    }
    for (const m of this.mirrors) m.replaceAll(zones);
    let records = 0;
    for (const z of zones) records += z.packed?.count ?? z.records.length;
    collectAfterLoad(records);
  }

  private onEvent(event: ZoneChangedEvent): void {
    if (typeof event?.zoneId !== 'number') return;
    if (typeof event.publishedAtMs === 'number' && this.options.observeBusLag) {
      // Clocks of two machines may disagree by a little: a negative lag counts as none.
      this.options.observeBusLag(Math.max(0, Date.now() - event.publishedAtMs) / 1000);
    }
    this.enqueue(event.zoneId, event.deleted === true, event);
  }

  private enqueue(zoneId: number, deleted: boolean, event: ZoneChangedEvent | null = null): void {
    const previous = this.chains.get(zoneId) ?? Promise.resolve();
    // A macrotask later: the change's own API answer (same process on the embedded default) is
    // written before the reload takes the database and the CPU.
    const next = previous
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(async () => {
        if (event === null || deleted || !(await this.reloadNames(event))) await this.reload(zoneId, deleted);
      })
      .catch((error: unknown) => {
        // The zone keeps its served version; the next resync retries it.
        this.dbFailing = true;
        this.reloadFailures++;
        this.log.error({ err: error, zoneId }, 'zone reload failed');
      });
    this.chains.set(zoneId, next);
    void next.finally(() => {
      if (this.chains.get(zoneId) === next) this.chains.delete(zoneId);
    });
  }

  private async reload(zoneId: number, deleted: boolean): Promise<void> {
    const zone = deleted ? null : await this.source.load(zoneId);
    if (zone === null) {
      this.store.remove(zoneId);
      this.served.delete(zoneId);
      this.heads.delete(zoneId);
      for (const m of this.mirrors) m.remove(zoneId);
    } else {
      this.store.upsert(zone);
      this.served.set(zone.id, zone.serial);
      this.heads.set(zone.id, zoneHead(zone));
      for (const m of this.mirrors) m.upsert(zone);
    }
    this.options.onZoneReload?.('zone');
  }

  /**
   * A change to a few names (event.names) of a zone served at the serial it started from: only
   * those names are read and rebuilt (ZoneStore.patch), and the mirrors told (applyNames). false
   * when that does not apply — any doubt (a change in between, too many names, the apex, a zone
   * from the snapshot file, a name that does not parse) reloads whole.
   */
  private async reloadNames(event: ZoneChangedEvent): Promise<boolean> {
    const { zoneId, names } = event;
    const head = this.heads.get(zoneId);
    if (
      names === undefined ||
      this.source.loadNames === undefined ||
      head === undefined ||
      this.needsFullLoad ||
      event.previousSerial !== this.served.get(zoneId) ||
      names.length > MAX_PATCH_NAMES ||
      names.includes(head.domain)
    ) {
      return false;
    }
    const part = await this.source.loadNames(zoneId, names);
    // Another change committed since (its own event or a whole reload brings it), or the zone is gone.
    if (part === null || part.serial !== event.serial) return false;
    // The apex records (new SOA) and the changed names' records: all a patch reads.
    const zone = applyNamesChange(head, part, names);
    if (zone === null || !this.store.patch(zone, names)) return false;
    this.served.set(zoneId, zone.serial);
    this.heads.set(zoneId, zoneHead(zone));
    for (const m of this.mirrors) m.applyNames(zoneId, part, names);
    this.options.onZoneReload?.('names');
    return true;
  }
}
