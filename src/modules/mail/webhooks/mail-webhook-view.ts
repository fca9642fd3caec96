import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { MailWebhookRow } from '../mail-tables.ts';

/** A mail webhook as the API shows it: never its secret (its relay is in the path). */
export type MailWebhookView = JsonView<Omit<MailWebhookRow, 'service_id' | 'secret'>>;

export function mailWebhookView(row: MailWebhookRow): MailWebhookView {
  return {
    id: Number(row.id),
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    failure_count: Number(row.failure_count),
    last_status: row.last_status === null ? null : Number(row.last_status),
    last_delivered_at: row.last_delivered_at === null ? null : new Date(row.last_delivered_at).toISOString(),
    last_error: row.last_error,
    last_error_at: row.last_error_at === null ? null : new Date(row.last_error_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}
