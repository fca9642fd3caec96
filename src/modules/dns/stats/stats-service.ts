import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';

import type { Bus } from '../../../kernel/events/bus.ts';
import type { Clock } from '../../../kernel/clock.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { RCODE_FIELD, TOTAL_FIELD, TYPE_FIELD, zoneStatsKey } from './zone-stats-keys.ts';

const HOUR_MS = 3_600_000;
export const STATS_HOURS = 24;

export interface ZoneStats {
  zone_id: number;
  period_hours: number;
  total: number;
  by_type: Record<string, number>;
  by_rcode: Record<string, number>;
  hourly: { hour: string; total: number }[];
}

/** Queries over the last 24 hours (the current hour and the 23 before it), as the DNS nodes counted them. */
export class StatsService {
  constructor(
    private readonly zones: ZonesRepository,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  async zoneStats(owner: OwnerScope, zoneId: number): Promise<ZoneStats> {
    const zone = await this.zones.findAccessible(owner, zoneId);
    const currentHour = Math.floor(this.clock.now() / HOUR_MS) * HOUR_MS;
    const hours = Array.from(
      { length: STATS_HOURS },
      (_, i) => currentHour - (STATS_HOURS - 1 - i) * HOUR_MS,
    );
    const counters = await Promise.all(hours.map((h) => this.bus.readCounters(zoneStatsKey(zone.id, h))));
    const stats: ZoneStats = {
      zone_id: zone.id,
      period_hours: STATS_HOURS,
      total: 0,
      by_type: {},
      by_rcode: {},
      hourly: [],
    };
    counters.forEach((fields, i) => {
      const total = fields[TOTAL_FIELD] ?? 0;
      stats.total += total;
      stats.hourly.push({ hour: new Date(hours[i]!).toISOString(), total });
      for (const [field, n] of Object.entries(fields)) {
        if (field.startsWith(TYPE_FIELD)) add(stats.by_type, field.slice(TYPE_FIELD.length), n);
        else if (field.startsWith(RCODE_FIELD)) add(stats.by_rcode, field.slice(RCODE_FIELD.length), n);
      }
    });
    return stats;
  }
}

function add(into: Record<string, number>, key: string, n: number): void {
  into[key] = (into[key] ?? 0) + n;
}
