import type { Kysely, Transaction } from 'kysely';
import type { MailTables, RelayKeyRow, RelayRow } from '../mail-tables.ts';

/** Relay keys: the hash and lookup only; the key itself is shown once and never stored. */
export class RelayKeysRepository {
  constructor(private readonly db: Kysely<MailTables> | Transaction<MailTables>) {}

  withTx(trx: Transaction<MailTables>): RelayKeysRepository {
    return new RelayKeysRepository(trx);
  }

  async list(serviceId: number): Promise<RelayKeyRow[]> {
    return this.db
      .selectFrom('mail_relay_keys')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('id')
      .execute();
  }

  async insert(row: Omit<RelayKeyRow, 'id' | 'last_used_at'>): Promise<RelayKeyRow> {
    return this.db
      .insertInto('mail_relay_keys')
      .values(row as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(serviceId: number, keyId: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('mail_relay_keys')
      .where('service_id', '=', serviceId)
      .where('id', '=', keyId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async deleteAll(serviceId: number): Promise<void> {
    await this.db.deleteFrom('mail_relay_keys').where('service_id', '=', serviceId).execute();
  }

  /** The key at `lookup` with its relay, for the credential check. */
  async byLookup(lookup: string): Promise<{ key: RelayKeyRow; relay: RelayRow } | null> {
    const row = await this.db
      .selectFrom('mail_relay_keys as k')
      .innerJoin('mail_relays as r', 'r.service_id', 'k.service_id')
      .selectAll('k')
      .select([
        'r.user_id as r_user_id',
        'r.org_id as r_org_id',
        'r.per_minute as r_per_minute',
        'r.per_day as r_per_day',
        'r.max_recipients as r_max_recipients',
        'r.status as r_status',
        'r.created_at as r_created_at',
      ])
      .where('k.lookup', '=', lookup)
      .executeTakeFirst();
    if (row === undefined) return null;
    const { r_user_id, r_org_id, r_per_minute, r_per_day, r_max_recipients, r_status, r_created_at, ...key } =
      row;
    return {
      key,
      relay: {
        service_id: key.service_id,
        user_id: r_user_id,
        org_id: r_org_id,
        per_minute: r_per_minute,
        per_day: r_per_day,
        max_recipients: r_max_recipients,
        status: r_status,
        created_at: r_created_at,
      },
    };
  }

  async touch(keyId: number, at: Date): Promise<void> {
    await this.db.updateTable('mail_relay_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
  }
}
