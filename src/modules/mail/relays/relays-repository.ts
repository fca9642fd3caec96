import type { Kysely, Transaction } from 'kysely';
import type { MailTables, RelayRow, RelayStatus } from '../mail-tables.ts';

type Db = Kysely<MailTables> | Transaction<MailTables>;

/** The relays: one per smtp_relay service, with the plan's sending limits. */
export class RelaysRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<MailTables>): RelaysRepository {
    return new RelaysRepository(trx);
  }

  async find(serviceId: number): Promise<RelayRow | null> {
    return (
      (await this.db
        .selectFrom('mail_relays')
        .selectAll()
        .where('service_id', '=', serviceId)
        .executeTakeFirst()) ?? null
    );
  }

  /** The relay's row, locked until the transaction ends: sends of one relay are scheduled one by one. */
  async lock(serviceId: number): Promise<RelayRow | null> {
    return (
      (await this.db
        .selectFrom('mail_relays')
        .selectAll()
        .where('service_id', '=', serviceId)
        .forUpdate()
        .executeTakeFirst()) ?? null
    );
  }

  async upsert(row: Omit<RelayRow, 'created_at'>): Promise<void> {
    await this.db
      .insertInto('mail_relays')
      .values(row as never)
      .onConflict((oc) =>
        oc.column('service_id').doUpdateSet({
          status: row.status,
          per_minute: row.per_minute,
          per_day: row.per_day,
          max_recipients: row.max_recipients,
        }),
      )
      .execute();
  }

  async setStatus(serviceId: number, status: RelayStatus): Promise<void> {
    await this.db.updateTable('mail_relays').set({ status }).where('service_id', '=', serviceId).execute();
  }
}
