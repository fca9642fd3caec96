/**
 * What each bucket of a service holds, as its gateway's bucket stats tell (`usage['rgw.main']`:
 * bytes and objects; absent for a bucket never written to). A reading is kept in-process for at
 * most a minute per service and gateway, so listing buckets does not ask the gateway each time.
 */
import type { Clock } from '../../../kernel/clock.ts';
import { RgwAdminError } from '../gateway/rgw-admin-client.ts';
import type { RegionGateway } from '../gateway/storage-gateways.ts';
import { OWNER_UID } from '../storage/tenant-users.ts';

export interface BucketUsage {
  readonly bytes: number;
  readonly objects: number;
}

export interface UsageReading {
  /** When the gateway was asked. */
  readonly at: Date;
  readonly byName: ReadonlyMap<string, BucketUsage>;
}

const MAX_AGE_MS = 60_000;
/** Past this many readings kept, stale ones are dropped. */
const PRUNE_AT = 5_000;
/** A bucket the gateway has no stats of (never written to): it holds nothing. */
export const NO_USAGE: BucketUsage = { bytes: 0, objects: 0 };

export const usageOf = (reading: UsageReading, name: string): BucketUsage =>
  reading.byName.get(name) ?? NO_USAGE;

export class BucketUsageCache {
  private readonly readings = new Map<string, UsageReading>();

  constructor(private readonly clock: Clock) {}

  /** The tenant's bucket usage at a gateway: the kept reading when under a minute old. */
  async read(serviceId: number, tenant: string, gateway: RegionGateway): Promise<UsageReading> {
    const id = `${serviceId} ${gateway.internalUrl}`;
    const kept = this.readings.get(id);
    const now = this.clock.now();
    if (kept !== undefined && now - kept.at.getTime() < MAX_AGE_MS) return kept;
    const reading: UsageReading = { at: new Date(now), byName: await this.fetch(tenant, gateway) };
    if (this.readings.size >= PRUNE_AT) this.prune(now);
    this.readings.set(id, reading);
    return reading;
  }

  /** A bucket was made or removed: the next read asks the gateway. */
  forget(serviceId: number): void {
    for (const id of this.readings.keys()) if (id.startsWith(`${serviceId} `)) this.readings.delete(id);
  }

  private async fetch(tenant: string, gateway: RegionGateway): Promise<Map<string, BucketUsage>> {
    let stats;
    try {
      stats = await gateway.admin.bucketStats({ tenant, uid: OWNER_UID });
    } catch (e) {
      if (e instanceof RgwAdminError && e.code === 'NoSuchUser') return new Map();
      throw e;
    }
    const byName = new Map<string, BucketUsage>();
    for (const s of stats) {
      const main = s.usage['rgw.main'];
      const name = s.bucket.includes('/') ? s.bucket.slice(s.bucket.indexOf('/') + 1) : s.bucket;
      byName.set(name, { bytes: main?.size ?? 0, objects: main?.num_objects ?? 0 });
    }
    return byName;
  }

  private prune(now: number): void {
    for (const [id, r] of this.readings) if (now - r.at.getTime() >= MAX_AGE_MS) this.readings.delete(id);
  }
}
