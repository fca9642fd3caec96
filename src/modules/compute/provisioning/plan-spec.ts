/**
 * A VPS plan's sizes and limits from its catalogue metadata (catalog/products.json): `vcpus`,
 * `memory_mb`, `disk_gb`, `traffic_tb`, and `max_snapshots` (default 3), `max_backups` (default 2).
 */
export interface PlanSpec {
  readonly vcpus: number;
  readonly memoryMb: number;
  readonly diskGb: number;
  readonly trafficTb: number | null;
  readonly maxSnapshots: number;
  readonly maxBackups: number;
}

export const DEFAULT_MAX_SNAPSHOTS = 3;
export const DEFAULT_MAX_BACKUPS = 2;

const whole = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;

export function planSpec(metadata: Readonly<Record<string, unknown>> | null): PlanSpec {
  const m = metadata ?? {};
  return {
    vcpus: Math.max(1, whole(m.vcpus) ?? 1),
    memoryMb: Math.max(128, whole(m.memory_mb) ?? 1024),
    diskGb: Math.max(1, whole(m.disk_gb) ?? 10),
    trafficTb: whole(m.traffic_tb),
    maxSnapshots: whole(m.max_snapshots) ?? DEFAULT_MAX_SNAPSHOTS,
    maxBackups: whole(m.max_backups) ?? DEFAULT_MAX_BACKUPS,
  };
}
