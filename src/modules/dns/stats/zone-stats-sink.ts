import type { QueryStatsRow, QueryStatsSink } from '../../../dns/index.ts';
import type { Bus } from '../../../kernel/events/bus.ts';
import type { Logger } from '../../../kernel/log/logger.ts';
import { RCODE_FIELD, STATS_RETENTION_S, TOTAL_FIELD, TYPE_FIELD, zoneStatsKey } from './zone-stats-keys.ts';

/** Hands the data plane's batched counters to the bus, where the stats route reads them. */
export function zoneStatsSink(bus: Bus, log: Logger): QueryStatsSink {
  return {
    flush(batch: QueryStatsRow[]) {
      for (const row of batch) {
        const fields: Record<string, number> = { [TOTAL_FIELD]: row.total };
        for (const [type, n] of Object.entries(row.byType)) fields[TYPE_FIELD + type] = n;
        for (const [rcode, n] of Object.entries(row.byRcode)) fields[RCODE_FIELD + rcode] = n;
        bus
          .incrementCounters(zoneStatsKey(row.zoneId, Date.parse(row.hour)), fields, STATS_RETENTION_S)
          .catch((error: unknown) => log.warn({ err: error }, 'query stats not stored'));
      }
    },
  };
}
