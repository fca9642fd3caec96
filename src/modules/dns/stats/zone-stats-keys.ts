/** Where per-zone query counters live in the bus: one hash per zone and UTC hour. */
export const STATS_RETENTION_S = 26 * 3600;

export function zoneStatsKey(zoneId: number, hourStartMs: number): string {
  return `dns:stats:${zoneId}:${hourStartMs}`;
}

export const TYPE_FIELD = 'type:';
export const RCODE_FIELD = 'rcode:';
export const TOTAL_FIELD = 'total';
