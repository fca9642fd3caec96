import type { Kysely, Transaction } from 'kysely';
import type {
  CommercePublishableKeyRow,
  CommerceSalesChannelRow,
  CommerceStoreSettingsRow,
  CommerceTables,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** Store settings, sales channels and publishable keys of one organization. */
export class StoreRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): StoreRepository {
    return new StoreRepository(trx);
  }

  async settings(orgId: number): Promise<CommerceStoreSettingsRow | null> {
    const row = await this.db
      .selectFrom('commerce_store_settings')
      .selectAll()
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return row ?? null;
  }

  async saveSettings(row: CommerceStoreSettingsRow): Promise<CommerceStoreSettingsRow> {
    return this.db
      .insertInto('commerce_store_settings')
      .values(row)
      .onConflict((oc) =>
        oc.column('org_id').doUpdateSet({
          name: row.name,
          default_currency_code: row.default_currency_code,
          support_email: row.support_email,
          seller_of_record: row.seller_of_record,
          updated_at: row.updated_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async channels(orgId: number): Promise<CommerceSalesChannelRow[]> {
    return this.db
      .selectFrom('commerce_sales_channels')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id')
      .execute();
  }

  async channel(orgId: number, id: number): Promise<CommerceSalesChannelRow | null> {
    const row = await this.db
      .selectFrom('commerce_sales_channels')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Which of `ids` are sales channels of the organization. */
  async channelIds(orgId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('commerce_sales_channels')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  async insertChannel(
    row: Omit<CommerceSalesChannelRow, 'id' | 'created_at' | 'updated_at'>,
    at: Date,
  ): Promise<CommerceSalesChannelRow> {
    return this.db
      .insertInto('commerce_sales_channels')
      .values({ ...row, created_at: at, updated_at: at } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateChannel(
    orgId: number,
    id: number,
    patch: Partial<Pick<CommerceSalesChannelRow, 'name' | 'description' | 'is_disabled'>>,
    at: Date,
  ): Promise<CommerceSalesChannelRow | null> {
    const row = await this.db
      .updateTable('commerce_sales_channels')
      .set({ ...patch, updated_at: at })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async deleteChannel(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_sales_channels')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async keysOfChannel(channelId: number): Promise<number> {
    const row = await this.db
      .selectFrom('commerce_publishable_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sales_channel_id', '=', channelId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async keys(orgId: number): Promise<CommercePublishableKeyRow[]> {
    return this.db
      .selectFrom('commerce_publishable_keys')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id', 'desc')
      .execute();
  }

  async insertKey(
    row: Omit<CommercePublishableKeyRow, 'id' | 'revoked_at'>,
  ): Promise<CommercePublishableKeyRow> {
    return this.db
      .insertInto('commerce_publishable_keys')
      .values(row as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Revokes a key (once: a revoked key keeps its first revocation time). */
  async revokeKey(orgId: number, id: number, at: Date): Promise<CommercePublishableKeyRow | null> {
    const row = await this.db
      .updateTable('commerce_publishable_keys')
      .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(at)) }))
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  /** The key whose lookup is given (the Store API's door, next). */
  async keyByLookup(lookup: string): Promise<CommercePublishableKeyRow | null> {
    const row = await this.db
      .selectFrom('commerce_publishable_keys')
      .selectAll()
      .where('lookup', '=', lookup)
      .executeTakeFirst();
    return row ?? null;
  }
}
