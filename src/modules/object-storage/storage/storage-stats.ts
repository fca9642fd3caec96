/**
 * What a service stores, as the gateway counts it: the sum of its buckets' stats (current at every
 * write, where a user's own stats are a copy the gateway refreshes now and then), kept at most 60 s per service so that lists of services cost one gateway call per
 * service a minute at most. A gateway that does not answer gives the last reading (or none).
 */
import type { Clock } from '../../../kernel/clock.ts';
import type { Logger } from '../../../kernel/log/logger.ts';
import type { StorageGateways } from '../gateway/storage-gateways.ts';
import { OWNER_UID } from './tenant-users.ts';

export interface StoredTotals {
  readonly usedBytes: number;
  readonly objectCount: number;
  /** When the gateway was read; null: never. */
  readonly measuredAt: Date | null;
}

const MAX_AGE_MS = 60_000;
const NONE: StoredTotals = { usedBytes: 0, objectCount: 0, measuredAt: null };

export class StorageStats {
  private readonly cache = new Map<string, StoredTotals>();

  constructor(
    private readonly gateways: StorageGateways,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  async totals(tenant: string): Promise<StoredTotals> {
    const cached = this.cache.get(tenant);
    const now = this.clock.now();
    if (cached?.measuredAt != null && now - cached.measuredAt.getTime() < MAX_AGE_MS) return cached;
    try {
      let usedBytes = 0;
      let objectCount = 0;
      for (const g of this.gateways.distinct()) {
        for (const b of await g.admin.bucketStats({ tenant, uid: OWNER_UID })) {
          usedBytes += b.usage['rgw.main']?.size ?? 0;
          objectCount += b.usage['rgw.main']?.num_objects ?? 0;
        }
      }
      const fresh = { usedBytes, objectCount, measuredAt: new Date(now) };
      this.cache.set(tenant, fresh);
      return fresh;
    } catch (err) {
      this.log.warn({ err, tenant }, 'object storage: gateway stats unavailable; last reading shown');
      return cached ?? NONE;
    }
  }

  /** After a change the caller made (an upload through us, a deleted bucket): read again next time. */
  forget(tenant: string): void {
    this.cache.delete(tenant);
  }
}
