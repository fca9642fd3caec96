import { sql, type Transaction } from 'kysely';
import type { DeliveryEngine } from '../../webhooks/index.ts';
import { sortedJson } from '../../webhooks/index.ts';
import type { EventRow, MailTables } from '../mail-tables.ts';
import {
  MAIL_WEBHOOK_KIND,
  RESPONSE_MAX,
  SUPPRESSING_EVENTS,
  type MailEventName,
} from './mail-event-names.ts';

/** One delivery event as the module's parts report it. */
export interface NewMailEvent {
  readonly serviceId: number;
  readonly messageRef: number | null;
  readonly event: MailEventName;
  readonly type: string;
  readonly queueId: string | null;
  readonly messageId: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly response: string | null;
}

/** Seed: "UTC timestamp with no zone suffix". */
export function utcNoZone(at: Date): string {
  return at.toISOString().slice(0, 19);
}

/** The seed's event body: every field but id, event, type and occurred_at null when not carried. */
export function eventBody(row: EventRow): Record<string, unknown> {
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

/**
 * Records delivery events, inside the caller's transaction: the event rows, the suppressions that
 * `bounced` and `complaint` add, and one webhook delivery per subscribed, enabled webhook of the
 * relay — so an event, its suppression and its deliveries exist together or not at all. Webhooks
 * made later never see it (seed: "a new webhook receives only events recorded after its creation").
 */
export class MailEventRecorder {
  constructor(private readonly engine: DeliveryEngine) {}

  async record(trx: Transaction<MailTables>, events: readonly NewMailEvent[], at: Date): Promise<EventRow[]> {
    if (events.length === 0) return [];
    const rows = await trx
      .insertInto('mail_events')
      .values(
        events.map((e) => ({
          service_id: e.serviceId,
          message_ref: e.messageRef,
          event: e.event,
          type: e.type,
          queue_id: e.queueId,
          message_id: e.messageId,
          from_addr: e.from?.toLowerCase() ?? null,
          to_addr: e.to?.toLowerCase() ?? null,
          response: e.response === null ? null : e.response.slice(0, RESPONSE_MAX),
          occurred_at: at,
        })) as never,
      )
      .returningAll()
      .execute();
    for (const row of rows) {
      if (SUPPRESSING_EVENTS.has(row.event) && row.to_addr !== null) {
        await trx
          .insertInto('mail_suppressions')
          .values({
            service_id: row.service_id,
            address: row.to_addr,
            reason: row.event === 'bounced' ? 'bounced' : 'complaint',
            event_id: row.id,
            created_at: at,
          })
          .onConflict((oc) => oc.columns(['service_id', 'address']).doNothing())
          .execute();
      }
    }
    const deliveries: Parameters<DeliveryEngine['enqueue']>[0][number][] = [];
    for (const row of rows) {
      for (const id of await listeners(trx, Number(row.service_id), row.event)) {
        deliveries.push({
          kind: MAIL_WEBHOOK_KIND,
          targetId: id,
          eventId: Number(row.id),
          eventName: row.event,
          body: sortedJson(eventBody(row)),
        });
      }
    }
    await this.engine.enqueue(deliveries, trx as Transaction<unknown>);
    return rows;
  }
}

/** Enabled webhooks of the relay subscribed to `event` (`suppressed` is never sent: seed). */
async function listeners(trx: Transaction<MailTables>, serviceId: number, event: string): Promise<number[]> {
  if (event === 'suppressed') return [];
  const rows = await trx
    .selectFrom('mail_webhooks')
    .select('id')
    .where('service_id', '=', serviceId)
    .where('enabled', '=', true)
    .where(sql<boolean>`${event} = ANY(events)`)
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}
