import type { Transaction } from 'kysely';
import type { Deliveries, QueuedDelivery } from '../../webhooks/index.ts';
import type { MailContext } from '../mail-context.ts';
import type { EventRow, MailTables } from '../mail-tables.ts';
import type { SuppressionsRepository } from '../suppressions/suppressions-repository.ts';
import { RESPONSE_MAX, SUPPRESSING_EVENTS, type MailEventName } from './mail-event-names.ts';
import type { MailEventsRepository, NewEventRow } from './mail-events-repository.ts';

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

/** A delivery of a recorded event to one webhook, as the delivery engine enqueues it. */
export type MailDelivery = QueuedDelivery;

/** The deliveries of recorded events to the webhooks that hear them, read inside `trx`. */
export type MailFanOut = (trx: Transaction<MailTables>, rows: readonly EventRow[]) => Promise<MailDelivery[]>;

/**
 * Records delivery events, inside the caller's transaction: the event rows, the suppressions that
 * `bounced` and `complaint` add, and one webhook delivery per subscribed, enabled webhook of the
 * relay — so an event, its suppression and its deliveries exist together or not at all. Webhooks
 * made later never see it: a new webhook receives only events recorded after its creation.
 */
export class MailEventRecorder {
  constructor(
    private readonly ctx: MailContext,
    private readonly engine: Deliveries,
    private readonly events: MailEventsRepository,
    private readonly suppressions: SuppressionsRepository,
    private readonly fanOut: MailFanOut,
  ) {}

  /** Records events in a transaction of their own, at the clock's now. */
  async recordNow(events: readonly NewMailEvent[]): Promise<EventRow[]> {
    return this.ctx.transaction(({ trx }) => this.record(trx, events, new Date(this.ctx.clock.now())));
  }

  async record(trx: Transaction<MailTables>, events: readonly NewMailEvent[], at: Date): Promise<EventRow[]> {
    if (events.length === 0) return [];
    const rows = await this.events.withTx(trx).insert(events.map((e) => eventRow(e, at)));
    await this.suppress(trx, rows, at);
    await this.engine.enqueue(await this.fanOut(trx, rows), trx as Transaction<unknown>);
    return rows;
  }

  /** Puts the recipient of a `bounced` or `complaint` event on the relay's suppression list. */
  private async suppress(trx: Transaction<MailTables>, rows: readonly EventRow[], at: Date): Promise<void> {
    const suppressions = this.suppressions.withTx(trx);
    for (const row of rows) {
      if (!SUPPRESSING_EVENTS.has(row.event) || row.to_addr === null) continue;
      const reason = row.event === 'bounced' ? 'bounced' : 'complaint';
      await suppressions.add(Number(row.service_id), row.to_addr, reason, Number(row.id), at);
    }
  }
}

function eventRow(e: NewMailEvent, at: Date): NewEventRow {
  return {
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
  };
}
