import { sql, type Kysely, type Transaction } from 'kysely';
import type { MailTables, MailWebhookRow } from '../mail-tables.ts';

type Db = Kysely<MailTables> | Transaction<MailTables>;

export type NewMailWebhook = Pick<MailWebhookRow, 'service_id' | 'url' | 'events' | 'secret' | 'created_at'>;

/** A relay's mail webhooks, with their run of failures. */
export class MailWebhooksRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<MailTables>): MailWebhooksRepository {
    return new MailWebhooksRepository(trx);
  }

  /** Oldest first. */
  async listOf(serviceId: number): Promise<MailWebhookRow[]> {
    return this.db
      .selectFrom('mail_webhooks')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('id')
      .execute();
  }

  /** The relay's webhooks, disabled ones counted. */
  async count(serviceId: number): Promise<number> {
    const row = await this.db
      .selectFrom('mail_webhooks')
      .select(sql<string>`count(*)`.as('n'))
      .where('service_id', '=', serviceId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async find(id: number): Promise<MailWebhookRow | null> {
    return (
      (await this.db.selectFrom('mail_webhooks').selectAll().where('id', '=', id).executeTakeFirst()) ?? null
    );
  }

  /** Ids of the relay's enabled webhooks subscribed to `event`, oldest first. */
  async listeners(serviceId: number, event: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('mail_webhooks')
      .select('id')
      .where('service_id', '=', serviceId)
      .where('enabled', '=', true)
      .where(sql<boolean>`${event} = ANY(events)`)
      .orderBy('id')
      .execute();
    return rows.map((r) => Number(r.id));
  }

  async insert(row: NewMailWebhook): Promise<MailWebhookRow> {
    return this.db
      .insertInto('mail_webhooks')
      .values(row as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Answers whether the webhook was there. */
  async delete(serviceId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('mail_webhooks')
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async recordSuccess(id: number, status: number, at: Date): Promise<void> {
    await this.db
      .updateTable('mail_webhooks')
      .set({ failure_count: 0, last_status: status, last_delivered_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** Answers the failures in a row after this one (0 when the webhook is gone). */
  async recordFailure(id: number, status: number | null, at: Date, error: string): Promise<number> {
    const row = await this.db
      .updateTable('mail_webhooks')
      .set({
        failure_count: sql`failure_count + 1`,
        last_status: status,
        last_error: error,
        last_error_at: at,
      })
      .where('id', '=', id)
      .returning('failure_count')
      .executeTakeFirst();
    return row === undefined ? 0 : Number(row.failure_count);
  }

  async disable(id: number): Promise<void> {
    await this.db.updateTable('mail_webhooks').set({ enabled: false }).where('id', '=', id).execute();
  }
}
