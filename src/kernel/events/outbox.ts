import type { Kysely, Transaction } from 'kysely';
import { defineEvent } from './domain-events.ts';

/**
 * The outbox: events meant for the outside world (webhooks), written in the same transaction as
 * the change they announce (UnitOfWork.record), taken by a dispatcher (the webhooks module's
 * delivery engine) through `claimEvents` and `markDispatched`: nobody else reads its table.
 */
export interface OutboxEvent {
  /** The organization whose webhooks hear it; null: none (yet). */
  readonly orgId: number | null;
  /** The event name (`customer.created`: docs/webhooks.md, "Event names") or a `commerce.`-prefixed one. */
  readonly name: string;
  /** The event's body fields (`{customer_id, email}`: docs/webhooks.md, "Event names"). */
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

/** The outbox's table in a dispatcher's own transaction (kernel/db's joinTransaction, which imports this file). */
function outboxOf<T>(trx: Transaction<T>): Transaction<OutboxTables> {
  return trx as unknown as Transaction<OutboxTables>;
}

/** An outbox event as a dispatcher takes it. */
export interface ClaimedEvent extends OutboxEvent {
  readonly id: number;
  readonly occurredAt: Date;
}

/**
 * Up to `limit` events not dispatched yet, oldest first, locked for the rest of `trx` with
 * FOR UPDATE SKIP LOCKED: several dispatchers share the work without taking the same event.
 */
export async function claimEvents<T>(trx: Transaction<T>, limit: number): Promise<ClaimedEvent[]> {
  const rows = await outboxOf(trx)
    .selectFrom('events')
    .selectAll()
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((e) => ({
    id: Number(e.id),
    orgId: e.org_id === null ? null : Number(e.org_id),
    name: e.name,
    occurredAt: new Date(e.occurred_at),
    data: e.payload,
  }));
}

/** Marks claimed events done, in the transaction that claimed them (with the work they caused). */
export async function markDispatched<T>(
  trx: Transaction<T>,
  ids: readonly number[],
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await outboxOf(trx).updateTable('events').set({ dispatched_at: at }).where('id', 'in', ids).execute();
}
