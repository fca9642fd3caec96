import type { Kysely, Transaction } from 'kysely';
import type { CommerceRegionRow, CommerceTables } from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export type RegionWithCountries = CommerceRegionRow & { countries: string[] };

/** Regions and the countries each one holds (a country in at most one region of a shop). */
export class ShopRegionsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): ShopRegionsRepository {
    return new ShopRegionsRepository(trx);
  }

  async list(orgId: number): Promise<RegionWithCountries[]> {
    const rows = await this.db
      .selectFrom('commerce_regions')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id')
      .execute();
    return this.withCountries(orgId, rows);
  }

  async byId(orgId: number, id: number): Promise<RegionWithCountries | null> {
    const row = await this.db
      .selectFrom('commerce_regions')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? null : (await this.withCountries(orgId, [row]))[0]!;
  }

  private async withCountries(orgId: number, rows: CommerceRegionRow[]): Promise<RegionWithCountries[]> {
    if (rows.length === 0) return [];
    const countries = await this.db
      .selectFrom('commerce_region_countries')
      .selectAll()
      .where('org_id', '=', orgId)
      .where(
        'region_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('country_code')
      .execute();
    return rows.map((r) => ({
      ...r,
      countries: countries.filter((c) => Number(c.region_id) === Number(r.id)).map((c) => c.country_code),
    }));
  }

  /** The countries among `codes` that another region than `exceptRegionId` holds. */
  async countriesHeldElsewhere(
    orgId: number,
    codes: readonly string[],
    exceptRegionId: number | null,
  ): Promise<string[]> {
    if (codes.length === 0) return [];
    let q = this.db
      .selectFrom('commerce_region_countries')
      .select('country_code')
      .where('org_id', '=', orgId)
      .where('country_code', 'in', [...codes]);
    if (exceptRegionId !== null) q = q.where('region_id', '!=', exceptRegionId);
    return (await q.execute()).map((r) => r.country_code);
  }

  async insert(
    row: Omit<CommerceRegionRow, 'id' | 'created_at' | 'updated_at'>,
    at: Date,
  ): Promise<CommerceRegionRow> {
    return this.db
      .insertInto('commerce_regions')
      .values({
        ...row,
        payment_providers: JSON.stringify(row.payment_providers),
        created_at: at,
        updated_at: at,
      } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(
    orgId: number,
    id: number,
    patch: Partial<
      Pick<CommerceRegionRow, 'name' | 'currency_code' | 'tax_rate' | 'tax_inclusive' | 'payment_providers'>
    >,
    at: Date,
  ): Promise<boolean> {
    const { payment_providers, ...rest } = patch;
    const res = await this.db
      .updateTable('commerce_regions')
      .set({
        ...rest,
        ...(payment_providers !== undefined
          ? { payment_providers: JSON.stringify(payment_providers) as never }
          : {}),
        updated_at: at,
      })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async setCountries(orgId: number, regionId: number, codes: readonly string[]): Promise<void> {
    await this.db.deleteFrom('commerce_region_countries').where('region_id', '=', regionId).execute();
    if (codes.length === 0) return;
    await this.db
      .insertInto('commerce_region_countries')
      .values(codes.map((c) => ({ org_id: orgId, country_code: c, region_id: regionId })))
      .execute();
  }

  async shippingOptionCount(regionId: number): Promise<number> {
    const row = await this.db
      .selectFrom('commerce_shipping_options')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('region_id', '=', regionId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async delete(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_regions')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
