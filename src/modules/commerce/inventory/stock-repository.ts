import type { Kysely, Transaction } from 'kysely';
import type {
  CommerceInventoryLevelRow,
  CommerceStockLocationRow,
  CommerceTables,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export type StockLocationWithChannels = CommerceStockLocationRow & { sales_channel_ids: number[] };

/** Stock locations (and the sales channels they serve) and inventory levels per SKU and location. */
export class StockRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): StockRepository {
    return new StockRepository(trx);
  }

  async locations(orgId: number): Promise<StockLocationWithChannels[]> {
    const rows = await this.db
      .selectFrom('commerce_stock_locations')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id')
      .execute();
    return this.withChannels(rows);
  }

  async location(orgId: number, id: number): Promise<StockLocationWithChannels | null> {
    const row = await this.db
      .selectFrom('commerce_stock_locations')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? null : (await this.withChannels([row]))[0]!;
  }

  private async withChannels(rows: CommerceStockLocationRow[]): Promise<StockLocationWithChannels[]> {
    if (rows.length === 0) return [];
    const links = await this.db
      .selectFrom('commerce_stock_location_channels')
      .selectAll()
      .where(
        'stock_location_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('sales_channel_id')
      .execute();
    return rows.map((r) => ({
      ...r,
      sales_channel_ids: links
        .filter((l) => Number(l.stock_location_id) === Number(r.id))
        .map((l) => Number(l.sales_channel_id)),
    }));
  }

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

  async insertLocation(
    orgId: number,
    name: string,
    address: Record<string, string>,
    at: Date,
  ): Promise<number> {
    const row = await this.db
      .insertInto('commerce_stock_locations')
      .values({
        org_id: orgId,
        name,
        address: JSON.stringify(address),
        created_at: at,
        updated_at: at,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async updateLocation(
    orgId: number,
    id: number,
    patch: { name?: string; address?: Record<string, string> },
    at: Date,
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('commerce_stock_locations')
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.address !== undefined ? { address: JSON.stringify(patch.address) as never } : {}),
        updated_at: at,
      })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async setChannels(locationId: number, ids: readonly number[]): Promise<void> {
    await this.db
      .deleteFrom('commerce_stock_location_channels')
      .where('stock_location_id', '=', locationId)
      .execute();
    if (ids.length > 0)
      await this.db
        .insertInto('commerce_stock_location_channels')
        .values(ids.map((sales_channel_id) => ({ stock_location_id: locationId, sales_channel_id })))
        .execute();
  }

  async reservedAt(locationId: number): Promise<number> {
    const row = await this.db
      .selectFrom('commerce_inventory_levels')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('reserved_quantity'), eb.lit(0)).as('n'))
      .where('stock_location_id', '=', locationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async deleteLocation(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_stock_locations')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async levels(
    orgId: number,
    filter: { sku?: string; stockLocationId?: number },
    limit: number,
    offset: number,
  ): Promise<{ rows: CommerceInventoryLevelRow[]; count: number }> {
    let q = this.db.selectFrom('commerce_inventory_levels').where('org_id', '=', orgId);
    if (filter.sku !== undefined) q = q.where('sku', '=', filter.sku);
    if (filter.stockLocationId !== undefined) q = q.where('stock_location_id', '=', filter.stockLocationId);
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('sku').orderBy('stock_location_id').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, count: Number(total.n) };
  }

  /** Which of `skus` variants of the organization carry. */
  async knownSkus(orgId: number, skus: readonly string[]): Promise<Set<string>> {
    if (skus.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('commerce_product_variants')
      .select('sku')
      .where('org_id', '=', orgId)
      .where('sku', 'in', [...skus])
      .execute();
    return new Set(rows.map((r) => r.sku!));
  }

  async locationIds(orgId: number, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('commerce_stock_locations')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** The level of one SKU at one location, locked for the rest of the transaction. */
  async levelForUpdate(
    orgId: number,
    sku: string,
    locationId: number,
  ): Promise<CommerceInventoryLevelRow | null> {
    const row = await this.db
      .selectFrom('commerce_inventory_levels')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('sku', '=', sku)
      .where('stock_location_id', '=', locationId)
      .forUpdate()
      .executeTakeFirst();
    return row ?? null;
  }

  /** Sets the stocked quantity of one SKU at one location (the row made when missing). */
  async setStocked(
    orgId: number,
    sku: string,
    locationId: number,
    stocked: number,
    at: Date,
  ): Promise<CommerceInventoryLevelRow> {
    return this.db
      .insertInto('commerce_inventory_levels')
      .values({
        org_id: orgId,
        sku,
        stock_location_id: locationId,
        stocked_quantity: stocked,
        reserved_quantity: 0,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .columns(['org_id', 'sku', 'stock_location_id'])
          .doUpdateSet({ stocked_quantity: stocked, updated_at: at }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
