import type { Kysely, Transaction } from 'kysely';
import type { EventRow, MailTables } from '../mail-tables.ts';

type Db = Kysely<MailTables> | Transaction<MailTables>;

export type NewEventRow = Omit<EventRow, 'id'>;

/** A relay's delivery events, as recorded (never changed afterwards). */
export class MailEventsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<MailTables>): MailEventsRepository {
    return new MailEventsRepository(trx);
  }

  async insert(rows: readonly NewEventRow[]): Promise<EventRow[]> {
    if (rows.length === 0) return [];
    return this.db
      .insertInto('mail_events')
      .values(rows as never)
      .returningAll()
      .execute();
  }

  /** Newest first, filtered by queue id and event name when given. */
  async page(
    serviceId: number,
    filter: { queueId?: string; event?: string },
    limit: number,
    offset: number,
  ): Promise<EventRow[]> {
    let q = this.db.selectFrom('mail_events').selectAll().where('service_id', '=', serviceId);
    if (filter.queueId !== undefined) q = q.where('queue_id', '=', filter.queueId);
    if (filter.event !== undefined) q = q.where('event', '=', filter.event);
    return q.orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }
}
