import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { EventRow } from '../mail-tables.ts';

/**
 * A delivery event as the events route and the webhooks show it (docs/mail.md, "Events"): every
 * field but id, event, type and occurred_at null when not carried; the addresses as `from` and
 * `to`.
 */
export type MailEventView = JsonView<
  Omit<EventRow, 'service_id' | 'message_ref' | 'from_addr' | 'to_addr'>
> & {
  from: string | null;
  to: string | null;
};

/** A UTC timestamp with no zone suffix. */
export function utcNoZone(at: Date): string {
  return at.toISOString().slice(0, 19);
}

export function mailEventView(row: EventRow): MailEventView {
  return {
    id: Number(row.id),
    event: row.event,
    type: row.type,
    queue_id: row.queue_id,
    message_id: row.message_id,
    from: row.from_addr,
    to: row.to_addr,
    response: row.response,
    occurred_at: utcNoZone(new Date(row.occurred_at)),
  };
}
