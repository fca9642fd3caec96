import type { Kysely, Transaction } from 'kysely';
import { defineEvent } from '../events/domain-events.ts';

/**
 * The outbox: events meant for the outside world (webhooks), written in the same transaction as
 * the change they announce (UnitOfWork.record), read by the webhooks module's dispatcher.
 */
export interface OutboxEvent {
  /** The organization whose webhooks hear it; null: none (yet). */
  readonly orgId: number | null;
  /** The seed's event name (`customer.created`) or a `commerce.`-prefixed one. */
  readonly name: string;
  /** The body fields of the seed's event table. */
  readonly data: Readonly<Record<string, unknown>>;
}

export interface OutboxRow {
  id: number;
  org_id: number | null;
  name: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
  dispatched_at: Date | null;
}

export interface OutboxTables {
  events: OutboxRow;
}

/**
 * Published once a transaction that wrote outbox events has committed (UnitOfWork.record): the
 * dispatcher wakes instead of waiting for its next poll. Carries nothing; a lost one only delays
 * delivery to the next poll.
 */
export const OUTBOX_RECORDED = defineEvent<Record<string, never>>('outbox.recorded', () => ({}));

export async function insertOutboxEvent(
  trx: Transaction<OutboxTables> | Kysely<OutboxTables>,
  event: OutboxEvent,
  occurredAt: Date,
): Promise<number> {
  const row = await trx
    .insertInto('events')
    .values({
      org_id: event.orgId,
      name: event.name,
      payload: JSON.stringify(event.data),
      occurred_at: occurredAt,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
