/**
 * A storage plan's limits, from its catalogue metadata (docs/object-storage.md, "Plans"): what a
 * plan does not name takes these defaults. `presign_max_seconds` defaults to S3's own longest
 * presigned URL (7 days).
 */
export interface PlanLimits {
  readonly quotaBytes: number | null;
  readonly maxBuckets: number;
  readonly presignMaxSeconds: number;
  readonly graceDays: number;
  /** A decimal string, or null. */
  readonly overagePerGbMonth: string | null;
}

export const DEFAULT_LIMITS = {
  maxBuckets: 100,
  presignMaxSeconds: 604_800,
  graceDays: 7,
} as const;

const positiveInt = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;

export function planLimits(metadata: Readonly<Record<string, unknown>> | null): PlanLimits {
  const m = metadata ?? {};
  const overage = m.overage_per_gb_month;
  return {
    quotaBytes: positiveInt(m.quota_bytes),
    maxBuckets: positiveInt(m.max_buckets) ?? DEFAULT_LIMITS.maxBuckets,
    presignMaxSeconds: Math.min(
      positiveInt(m.presign_max_seconds) ?? DEFAULT_LIMITS.presignMaxSeconds,
      DEFAULT_LIMITS.presignMaxSeconds,
    ),
    graceDays: positiveInt(m.grace_days) ?? DEFAULT_LIMITS.graceDays,
    overagePerGbMonth: typeof overage === 'string' || typeof overage === 'number' ? String(overage) : null,
  };
}
