import { sql, type Kysely, type Transaction } from 'kysely';
import type { MailTables, SuppressionReason, SuppressionRow } from '../mail-tables.ts';

type Db = Kysely<MailTables> | Transaction<MailTables>;

/** A relay's suppression list: addresses it no longer sends to. */
export class SuppressionsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<MailTables>): SuppressionsRepository {
    return new SuppressionsRepository(trx);
  }

  async suppressedAmong(serviceId: number, addresses: readonly string[]): Promise<string[]> {
    if (addresses.length === 0) return [];
    const rows = await this.db
      .selectFrom('mail_suppressions')
      .select('address')
      .where('service_id', '=', serviceId)
      .where('address', 'in', [...addresses])
      .execute();
    const found = new Set(rows.map((r) => r.address));
    return addresses.filter((a) => found.has(a));
  }

  /** Suppresses `address` (for `eventId`, the event that made it, if any); one already there stays. */
  async add(
    serviceId: number,
    address: string,
    reason: SuppressionReason,
    eventId: number | null,
    at: Date,
  ): Promise<void> {
    await this.db
      .insertInto('mail_suppressions')
      .values({ service_id: serviceId, address, reason, event_id: eventId, created_at: at })
      .onConflict((oc) => oc.columns(['service_id', 'address']).doNothing())
      .execute();
  }

  /** Newest first. */
  async page(
    serviceId: number,
    limit: number,
    offset: number,
  ): Promise<{ rows: SuppressionRow[]; total: number }> {
    const rows = await this.db
      .selectFrom('mail_suppressions')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('created_at', 'desc')
      .orderBy('address')
      .limit(limit)
      .offset(offset)
      .execute();
    const total = await this.db
      .selectFrom('mail_suppressions')
      .select(sql<string>`count(*)`.as('n'))
      .where('service_id', '=', serviceId)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(total.n) };
  }

  async remove(serviceId: number, address: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('mail_suppressions')
      .where('service_id', '=', serviceId)
      .where('address', '=', address)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
