/**
 * What a service's tenant holds and moved, as its gateways say: stored bytes and objects from the
 * stats of the owner's buckets (the owner holds every bucket of the tenant), transfer and requests from the
 * usage log of every user of the tenant — summed over the distinct gateways of its regions.
 */
import {
  RgwAdminError,
  type RgwAdminClient,
  type RgwBucketStats,
  type RgwUsage,
  type RgwUsageCategory,
} from '../gateway/rgw-admin-client.ts';
import type { StorageGateways } from '../gateway/storage-gateways.ts';
import { OWNER_UID } from '../storage/tenant-users.ts';
import type { Transfer } from './usage-repository.ts';

export interface Stored {
  readonly bytes: number;
  readonly objects: number;
}

const HOUR_MS = 3600_000;

/** A window of the usage log in the gateway's hours: from `start` (or the beginning) to before `end`. */
export interface LogWindow {
  readonly start: Date | null;
  readonly end: Date;
}

export const NO_TRANSFER: Transfer = { bytesIn: 0, bytesOut: 0, requests: 0 };

const noSuchUser = (e: unknown): boolean => e instanceof RgwAdminError && e.code === 'NoSuchUser';

export const addTransfer = (a: Transfer, b: Transfer): Transfer => ({
  bytesIn: a.bytesIn + b.bytesIn,
  bytesOut: a.bytesOut + b.bytesOut,
  requests: a.requests + b.requests,
});

/** What a window of the log holds: all of it, and the part in its last hour. */
export interface WindowTransfer {
  readonly total: Transfer;
  readonly lastHour: Transfer;
}

const categoriesOf = (categories: readonly RgwUsageCategory[]): Transfer =>
  categories.reduce(
    (sum, c) => addTransfer(sum, { bytesIn: c.bytes_received, bytesOut: c.bytes_sent, requests: c.ops }),
    NO_TRANSFER,
  );

/** Every entry the log answered, and those of the hour from `lastHour` (one answer: consistent). */
function transferOf(usage: RgwUsage, lastHour: Date): WindowTransfer {
  let total = NO_TRANSFER;
  let last = NO_TRANSFER;
  for (const e of usage.entries)
    for (const b of e.buckets) {
      const t = categoriesOf(b.categories);
      total = addTransfer(total, t);
      if (b.epoch * 1000 >= lastHour.getTime()) last = addTransfer(last, t);
    }
  return { total, lastHour: last };
}

export class GatewayUsage {
  constructor(private readonly gateways: StorageGateways) {}

  /**
   * What the tenant stores now: the owner's buckets' stats, which the bucket index keeps current on
   * every write (the user's own stats are a copy the gateway refreshes only now and then, and for a
   * user without a quota rarely). A gateway without the owner (not made there yet) adds nothing.
   */
  async stored(tenant: string): Promise<Stored> {
    let bytes = 0;
    let objects = 0;
    for (const g of this.gateways.distinct()) {
      let buckets: RgwBucketStats[] = [];
      try {
        buckets = await g.admin.bucketStats({ tenant, uid: OWNER_UID });
      } catch (e) {
        if (!noSuchUser(e)) throw e;
      }
      for (const b of buckets) {
        bytes += b.usage['rgw.main']?.size ?? 0;
        objects += b.usage['rgw.main']?.num_objects ?? 0;
      }
    }
    return { bytes, objects };
  }

  /** What the users moved in the window, and in its last hour (a user gone adds nothing). */
  async transfer(tenant: string, uids: readonly string[], window: LogWindow): Promise<WindowTransfer> {
    let sum: WindowTransfer = { total: NO_TRANSFER, lastHour: NO_TRANSFER };
    for (const g of this.gateways.distinct())
      for (const uid of uids) {
        const t = await this.userTransfer(g.admin, tenant, uid, window);
        sum = { total: addTransfer(sum.total, t.total), lastHour: addTransfer(sum.lastHour, t.lastHour) };
      }
    return sum;
  }

  private async userTransfer(
    admin: RgwAdminClient,
    tenant: string,
    uid: string,
    window: LogWindow,
  ): Promise<WindowTransfer> {
    try {
      const usage = await admin.usage(
        { tenant, uid },
        { ...(window.start !== null ? { start: window.start } : {}), end: window.end },
      );
      return transferOf(usage, new Date(window.end.getTime() - HOUR_MS));
    } catch (e) {
      if (noSuchUser(e)) return { total: NO_TRANSFER, lastHour: NO_TRANSFER };
      throw e;
    }
  }
}
