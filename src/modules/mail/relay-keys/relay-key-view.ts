import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { RelayKeyRow } from '../mail-tables.ts';

/** A relay key as the API shows it: never the key nor its hash; its lookup shown as key_prefix. */
export type RelayKeyView = JsonView<Omit<RelayKeyRow, 'service_id' | 'lookup' | 'key_hash'>> & {
  /** The key's first characters, to tell keys apart (the key itself is shown once). */
  key_prefix: string;
};

export function relayKeyView(row: RelayKeyRow): RelayKeyView {
  return {
    id: Number(row.id),
    label: row.label,
    key_prefix: row.lookup,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}
