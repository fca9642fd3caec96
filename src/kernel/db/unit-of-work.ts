import type { Kysely, Transaction } from 'kysely';
import type { EventBus, EventType } from '../events/domain-events.ts';
import type { Clock } from '../clock.ts';
import type { Logger } from '../log/logger.ts';
import { insertOutboxEvent, OUTBOX_RECORDED, type OutboxEvent, type OutboxTables } from '../events/outbox.ts';

/**
 * One unit of work: a transaction, the events it announces and the work to do once it has
 * committed. Events and after-commit work never run for a change that rolled back, and always
 * run after the data they speak of is visible to every reader.
 */
export interface UnitOfWork<DB> {
  readonly trx: Transaction<DB>;
  /**
   * Announces `payload` on the bus once the transaction commits; a function is called then, at
   * publication (for payloads that carry their publication time).
   */
  emit<P>(type: EventType<P>, payload: P | (() => P)): void;
  /** Runs `fn` once the transaction commits (after the events); a failure is logged, not thrown. */
  afterCommit(fn: () => void | Promise<void>): void;
  /**
   * Writes an event for the outside world (webhooks) to the outbox, inside this transaction: it
   * exists exactly when the change does, and the dispatcher delivers it whatever crashes later.
   */
  record(event: OutboxEvent): Promise<number>;
}

/**
 * A transaction another module opened, seen through this module's own tables: one unit of work
 * across two modules (a zone change the DNS module runs for load balancing), each writing only its
 * own tables through its own repositories.
 */
export function joinTransaction<Tables>(
  trx: Pick<Transaction<unknown>, 'isTransaction'>,
): Transaction<Tables> {
  return trx as unknown as Transaction<Tables>;
}

export type UnitOfWorkRunner<DB> = <T>(work: (uow: UnitOfWork<DB>) => Promise<T>) => Promise<T>;

/**
 * The runner a module uses for every multi-row change. A lost bus message is logged, not thrown:
 * the change is committed, and readers that must not miss one (DNS nodes) also resynchronise.
 */
export function unitOfWorkRunner<DB>(
  db: Kysely<DB>,
  events: EventBus,
  log: Logger,
  clock: Clock,
): UnitOfWorkRunner<DB> {
  return async <T>(work: (uow: UnitOfWork<DB>) => Promise<T>): Promise<T> => {
    const emitted: { type: EventType<unknown>; payload: unknown }[] = [];
    const resolve = (payload: unknown): unknown =>
      typeof payload === 'function' ? (payload as () => unknown)() : payload;
    const hooks: (() => void | Promise<void>)[] = [];
    const value = await db.transaction().execute(async (trx) => {
      emitted.length = 0;
      hooks.length = 0;
      return work({
        trx,
        emit: (type, payload) => emitted.push({ type: type as EventType<unknown>, payload }),
        afterCommit: (fn) => hooks.push(fn),
        record: (event) => {
          if (!emitted.some((e) => e.type === OUTBOX_RECORDED))
            emitted.push({ type: OUTBOX_RECORDED as EventType<unknown>, payload: {} });
          return insertOutboxEvent(joinTransaction<OutboxTables>(trx), event, new Date(clock.now()));
        },
      });
    });
    for (const { type, payload } of emitted) {
      await events.publish(type, resolve(payload)).catch((error: unknown) => {
        log.warn({ err: error, event: type.name }, 'event not published');
      });
    }
    for (const hook of hooks) {
      try {
        await hook();
      } catch (error) {
        log.warn({ err: error }, 'after-commit work failed');
      }
    }
    return value;
  };
}
