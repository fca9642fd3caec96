import type { Kysely, Transaction } from 'kysely';
import type { CommerceEventRow, CommerceTables } from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** The shop's event log (`commerce_events`): what `GET .../commerce/events` lists. */
export class ShopEventsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): ShopEventsRepository {
    return new ShopEventsRepository(trx);
  }

  async insert(orgId: number, name: string, data: Record<string, unknown>, at: Date): Promise<number> {
    const row = await this.db
      .insertInto('commerce_events')
      .values({ org_id: orgId, name, data: JSON.stringify(data) as never, created_at: at } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** One page below `beforeId`, newest first, and whether rows remain after it. */
  async page(
    orgId: number,
    beforeId: number | undefined,
    limit: number,
  ): Promise<{ rows: CommerceEventRow[]; more: boolean }> {
    let q = this.db.selectFrom('commerce_events').selectAll().where('org_id', '=', orgId);
    if (beforeId !== undefined) q = q.where('id', '<', beforeId);
    const rows = await q
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }
}
