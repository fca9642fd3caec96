import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { SuppressionRow } from '../mail-tables.ts';

/** A suppressed address as the API shows it (its relay is in the path; its event is not shown). */
export type SuppressionView = JsonView<Omit<SuppressionRow, 'service_id' | 'event_id'>>;

export function suppressionView(row: SuppressionRow): SuppressionView {
  return { address: row.address, reason: row.reason, created_at: new Date(row.created_at).toISOString() };
}
