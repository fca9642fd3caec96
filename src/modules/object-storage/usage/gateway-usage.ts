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
} from '../gateway/rgw-admin-client.ts';
import type { StorageGateways } from '../gateway/storage-gateways.ts';
import { OWNER_UID } from '../storage/tenant-users.ts';
import type { Transfer } from './usage-repository.ts';

export interface Stored {
  readonly bytes: number;
  readonly objects: number;
}

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

/** Every category of every user the log answered for. */
function transferOf(usage: RgwUsage): Transfer {
  let sum = NO_TRANSFER;
  for (const s of usage.summary)
    for (const c of s.categories)
      sum = addTransfer(sum, { bytesIn: c.bytes_received, bytesOut: c.bytes_sent, requests: c.ops });
  return sum;
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

  /** What the users moved in the window (a user gone adds nothing). */
  async transfer(tenant: string, uids: readonly string[], window: LogWindow): Promise<Transfer> {
    let sum = NO_TRANSFER;
    for (const g of this.gateways.distinct())
      for (const uid of uids) sum = addTransfer(sum, await this.userTransfer(g.admin, tenant, uid, window));
    return sum;
  }

  private async userTransfer(
    admin: RgwAdminClient,
    tenant: string,
    uid: string,
    window: LogWindow,
  ): Promise<Transfer> {
    try {
      const usage = await admin.usage(
        { tenant, uid },
        { ...(window.start !== null ? { start: window.start } : {}), end: window.end },
      );
      return transferOf(usage);
    } catch (e) {
      if (noSuchUser(e)) return NO_TRANSFER;
      throw e;
    }
  }
}
