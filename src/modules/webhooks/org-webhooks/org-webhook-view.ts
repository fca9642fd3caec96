import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { WebhookRow } from '../webhooks-tables.ts';

/** An organization webhook as the API shows it: never its secret, its organization or deletion. */
export type OrgWebhookView = JsonView<Omit<WebhookRow, 'org_id' | 'secret' | 'deleted_at'>>;

export function orgWebhookView(row: WebhookRow): OrgWebhookView {
  return {
    id: Number(row.id),
    url: row.url,
    events: row.events,
    is_active: row.is_active,
    failure_count: Number(row.failure_count),
    last_triggered_at: row.last_triggered_at === null ? null : new Date(row.last_triggered_at).toISOString(),
    last_error: row.last_error,
    last_error_at: row.last_error_at === null ? null : new Date(row.last_error_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}
