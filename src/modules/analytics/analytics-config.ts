import { defineConfigSection } from '../../kernel/config/config-section.ts';

/** The analytics module's settings (docs/analytics.md, "Settings"). */
export interface AnalyticsSettings {
  /** Days raw events and visits are kept (rollups are kept for good). */
  readonly retentionDays: number;
  /** How long ingested events wait in memory before one INSERT writes them. */
  readonly flushIntervalMs: number;
  /** A buffer this full is written at once. */
  readonly flushRows: number;
}

export const analyticsConfig = defineConfigSection<AnalyticsSettings>('analytics', (env) => ({
  retentionDays: env.int('TRACKING_RETENTION_DAYS', 30, 1, 3650),
  flushIntervalMs: env.int('TRACKING_FLUSH_INTERVAL_MS', 250, 10, 60_000),
  flushRows: env.int('TRACKING_FLUSH_ROWS', 1000, 1, 100_000),
}));
