import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { RecordRow } from '../dns-tables.ts';

/** A record as the API shows it: the row without its wire form and the module that manages it. */
export type RecordView = JsonView<Omit<RecordRow, 'type_code' | 'rdata' | 'managed_by'>>;

export function recordView(r: RecordRow): RecordView {
  return {
    id: r.id,
    zone_id: r.zone_id,
    name: r.name,
    type: r.type,
    content: r.content,
    ttl: r.ttl,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}
