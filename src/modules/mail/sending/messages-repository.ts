import { sql, type Kysely, type Transaction } from 'kysely';
import type { MailTables, MessageRow } from '../mail-tables.ts';

type Db = Kysely<MailTables> | Transaction<MailTables>;

/** The outgoing queue and message history. */
export class MessagesRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<MailTables>): MessagesRepository {
    return new MessagesRepository(trx);
  }

  async insert(
    row: Omit<MessageRow, 'id' | 'attempts' | 'locked_until' | 'handed_off_at' | 'mta_response'>,
  ): Promise<MessageRow> {
    return this.db
      .insertInto('mail_messages')
      .values(row as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The `n`-th latest hand-off time of the relay after `since` (0 = the latest), or null. */
  async nthLatestSince(serviceId: number, since: Date, n: number): Promise<Date | null> {
    const row = await this.db
      .selectFrom('mail_messages')
      .select('send_at')
      .where('service_id', '=', serviceId)
      .where('send_at', '>', since)
      .orderBy('send_at', 'desc')
      .offset(n)
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? null : new Date(row.send_at);
  }

  /** Messages of the relay handed off (or due) in [from, to). */
  async countBetween(serviceId: number, from: Date, to: Date): Promise<number> {
    const row = await this.db
      .selectFrom('mail_messages')
      .select(sql<string>`count(*)`.as('n'))
      .where('service_id', '=', serviceId)
      .where('send_at', '>=', from)
      .where('send_at', '<', to)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Claims due messages for one hand-off round: each is leased until `leaseUntil`, so another
   * process skips it, and a process that dies leaves it to be taken again when the lease ends.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<MessageRow[]> {
    return this.db
      .updateTable('mail_messages')
      .set({ locked_until: leaseUntil })
      .where(
        'id',
        'in',
        this.db
          .selectFrom('mail_messages')
          .select('id')
          .where('status', '=', 'queued')
          .where('send_at', '<=', now)
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
          .orderBy('send_at')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute();
  }

  async finish(
    id: number,
    fields: Partial<
      Pick<
        MessageRow,
        'status' | 'raw' | 'send_at' | 'attempts' | 'locked_until' | 'handed_off_at' | 'mta_response'
      >
    >,
  ): Promise<void> {
    await this.db.updateTable('mail_messages').set(fields).where('id', '=', id).execute();
  }

  async byQueueId(queueId: string): Promise<MessageRow | null> {
    return (
      (await this.db
        .selectFrom('mail_messages')
        .selectAll()
        .where('queue_id', '=', queueId)
        .executeTakeFirst()) ?? null
    );
  }

  async byMessageId(messageId: string): Promise<MessageRow | null> {
    return (
      (await this.db
        .selectFrom('mail_messages')
        .selectAll()
        .where('message_id', '=', messageId)
        .orderBy('id', 'desc')
        .executeTakeFirst()) ?? null
    );
  }
}
