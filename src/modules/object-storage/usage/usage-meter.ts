/**
 * The hourly meter: every OBJECT_STORAGE_METER_INTERVAL_S, a reading per metered service (active or
 * suspended) for the hour of the clock — what it stores (bytes, objects) and what it moved since
 * the previous reading (bytes in and out, requests) — then the purge of terminated services whose
 * grace has ended. One process reads an hour (a lock on the bus); an hour already read is not read
 * again (a row per service and hour).
 *
 * Transfer comes from the gateway's usage log, which counts per hour of the gateway's own clock
 * (real time), not of ours (which tests move, and which need not be aligned with the timer). So a
 * reading does not take "the log of the hour being metered": it takes what the log gained since
 * the previous reading — the log's hours from the previous reading's hour on, less what that
 * reading had already counted of its hour (object_storage_usage_marks). Nothing is counted twice
 * or lost however the readings fall across the log's hours; a service's first reading takes its
 * log from the start (a tenant is new with its service). The row and the moved mark are written
 * together, and only if the mark is still the one read (a slow reading of the hour before, in
 * another process, may have moved it): else the reading is dropped and the next run makes it.
 */
import type { ObjectStorageContext } from '../object-storage-context.ts';
import type { StorageService } from '../object-storage-tables.ts';
import type { StorageGateways } from '../gateway/storage-gateways.ts';
import type { StorageLifecycle } from '../storage/storage-lifecycle.ts';
import { StorageRepository } from '../storage/storage-repository.ts';
import { GatewayUsage } from './gateway-usage.ts';
import { UsageRepository, type Transfer, type UsageMark } from './usage-repository.ts';

export interface MeterResult {
  readonly hour: string;
  /** False when the hour was already read (or another process reads it now). */
  readonly ran: boolean;
  /** Services read now. */
  readonly services: number;
}

const HOUR_MS = 3600_000;
/** How long a reading may hold the hour's lock if its process dies before releasing it. */
const LOCK_TTL_MS = 15 * 60_000;

export const floorHour = (ms: number): Date => new Date(Math.floor(ms / HOUR_MS) * HOUR_MS);

/** a − b, never below zero (a user removed since takes its counts out of the log's sum). */
const since = (a: Transfer, b: Transfer): Transfer => ({
  bytesIn: Math.max(0, a.bytesIn - b.bytesIn),
  bytesOut: Math.max(0, a.bytesOut - b.bytesOut),
  requests: Math.max(0, a.requests - b.requests),
});

/** Another reading (of another hour, in another process) moved the mark first: this one is dropped. */
class MarkMoved extends Error {}

export class UsageMeter {
  private readonly storage: StorageRepository;
  private readonly usage: UsageRepository;
  private readonly read: GatewayUsage;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: ObjectStorageContext,
    gateways: StorageGateways,
    private readonly lifecycle: StorageLifecycle,
    /** The gateways' clock (real time): the usage log's hours are theirs. */
    private readonly gatewayNow: () => number = Date.now,
  ) {
    this.storage = new StorageRepository(ctx.db);
    this.usage = new UsageRepository(ctx.db);
    this.read = new GatewayUsage(gateways);
  }

  async runHour(asOf: Date): Promise<MeterResult> {
    const hour = floorHour(asOf.getTime());
    const lock = `object-storage:meter:${hour.toISOString()}`;
    if (!(await this.ctx.bus.tryLock(lock, LOCK_TTL_MS)))
      return { hour: hour.toISOString(), ran: false, services: 0 };
    try {
      const services = await this.storage.metered();
      const done = await this.usage.readIn(
        hour,
        services.map((s) => s.service_id),
      );
      const due = services.filter((s) => !done.has(s.service_id));
      let read = 0;
      for (const s of due) if (await this.readService(s, hour)) read += 1;
      await this.purgeDue();
      return { hour: hour.toISOString(), ran: due.length > 0, services: read };
    } finally {
      await this.ctx.bus.unlock(lock);
    }
  }

  /** One service's reading; a failure is logged and the others go on (the next run retries it). */
  private async readService(s: StorageService, hour: Date): Promise<boolean> {
    try {
      const stored = await this.read.stored(s.tenant);
      const { moved, previous, mark } = await this.transferSinceMark(s);
      return await this.ctx.transaction(async (uow) => {
        const repo = this.usage.withTx(uow.trx);
        const row = {
          service_id: s.service_id,
          hour,
          bytes: stored.bytes,
          objects: stored.objects,
          bytes_in: moved.bytesIn,
          bytes_out: moved.bytesOut,
          requests: moved.requests,
        };
        if (!(await repo.insert(row))) return false;
        if (!(await repo.advanceMark(s.service_id, previous, mark))) throw new MarkMoved();
        return true;
      });
    } catch (error) {
      if (error instanceof MarkMoved) {
        this.ctx.log.warn(
          { service_id: s.service_id },
          'object storage usage read meanwhile; left for later',
        );
        return false;
      }
      this.ctx.log.error({ err: error, service_id: s.service_id }, 'object storage usage reading failed');
      return false;
    }
  }

  /** What the usage log gained since the service's mark, and the mark after this reading. */
  private async transferSinceMark(
    s: StorageService,
  ): Promise<{ moved: Transfer; previous: UsageMark | null; mark: UsageMark }> {
    const uids = await this.lifecycle.uidsOf(s.service_id);
    const previous = await this.usage.mark(s.service_id);
    const logHour = floorHour(Math.max(this.gatewayNow(), previous?.logHour.getTime() ?? 0));
    const end = new Date(logHour.getTime() + HOUR_MS);
    // One answer for both: the log's count of the hour still running matches what is taken now.
    const { total, lastHour } = await this.read.transfer(s.tenant, uids, {
      start: previous?.logHour ?? null,
      end,
    });
    return {
      moved: previous === null ? total : since(total, previous),
      previous,
      mark: { logHour, ...lastHour },
    };
  }

  private async purgeDue(): Promise<void> {
    try {
      await this.lifecycle.purgeDue();
    } catch (error) {
      this.ctx.log.error({ err: error }, 'object storage purge failed; the next reading retries it');
    }
  }

  start(): void {
    if (this.timer !== undefined) return;
    const tick = (): void => {
      this.runHour(new Date(this.ctx.clock.now())).catch((error: unknown) =>
        this.ctx.log.error({ err: error }, 'object storage usage meter failed'),
      );
    };
    this.timer = setInterval(tick, this.ctx.settings.meterIntervalS * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
