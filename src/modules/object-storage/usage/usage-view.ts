import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { UsageRow } from '../object-storage-tables.ts';

/** One hourly reading: what the service stored then, and what it moved since the reading before. */
export type UsagePointView = JsonView<Omit<UsageRow, 'service_id' | 'hour'>> & {
  /** The hour read (its start). */
  at: string;
};

export interface UsageView {
  readonly service_id: number;
  readonly from: string;
  readonly to: string;
  readonly points: UsagePointView[];
}

export function usagePointView(r: UsageRow): UsagePointView {
  return {
    at: r.hour.toISOString(),
    bytes: r.bytes,
    objects: r.objects,
    bytes_in: r.bytes_in,
    bytes_out: r.bytes_out,
    requests: r.requests,
  };
}
