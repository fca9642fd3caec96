import type { Kysely, Transaction } from 'kysely';
import type {
  CommerceShippingOptionRow,
  CommerceShippingProfileRow,
  CommerceTables,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** A shipping option with its region's currency (its amounts' unit). */
export type ShippingOptionWithCurrency = CommerceShippingOptionRow & { currency_code: string };
export type ShippingOptionFields = Omit<
  CommerceShippingOptionRow,
  'id' | 'org_id' | 'created_at' | 'updated_at'
>;

/** Shipping profiles and the shipping options of each region. */
export class ShippingSetupRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): ShippingSetupRepository {
    return new ShippingSetupRepository(trx);
  }

  async profiles(orgId: number): Promise<CommerceShippingProfileRow[]> {
    return this.db
      .selectFrom('commerce_shipping_profiles')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id')
      .execute();
  }

  async profile(orgId: number, id: number): Promise<CommerceShippingProfileRow | null> {
    const row = await this.db
      .selectFrom('commerce_shipping_profiles')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  async insertProfile(
    orgId: number,
    name: string,
    type: string,
    at: Date,
  ): Promise<CommerceShippingProfileRow> {
    return this.db
      .insertInto('commerce_shipping_profiles')
      .values({ org_id: orgId, name, type, created_at: at, updated_at: at } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateProfile(
    orgId: number,
    id: number,
    patch: { name?: string; type?: string },
    at: Date,
  ): Promise<CommerceShippingProfileRow | null> {
    const row = await this.db
      .updateTable('commerce_shipping_profiles')
      .set({ ...patch, updated_at: at })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async optionsOfProfile(profileId: number): Promise<number> {
    const row = await this.db
      .selectFrom('commerce_shipping_options')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('shipping_profile_id', '=', profileId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async deleteProfile(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_shipping_profiles')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** The currency of a region of the organization, or null when it has no such region. */
  async regionCurrency(orgId: number, regionId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('commerce_regions')
      .select('currency_code')
      .where('org_id', '=', orgId)
      .where('id', '=', regionId)
      .executeTakeFirst();
    return row?.currency_code ?? null;
  }

  private optionQuery(orgId: number) {
    return this.db
      .selectFrom('commerce_shipping_options as o')
      .innerJoin('commerce_regions as r', 'r.id', 'o.region_id')
      .selectAll('o')
      .select('r.currency_code')
      .where('o.org_id', '=', orgId);
  }

  async options(orgId: number, regionId: number | undefined): Promise<ShippingOptionWithCurrency[]> {
    let q = this.optionQuery(orgId);
    if (regionId !== undefined) q = q.where('o.region_id', '=', regionId);
    return q.orderBy('o.region_id').orderBy('o.id').execute();
  }

  async option(orgId: number, id: number): Promise<ShippingOptionWithCurrency | null> {
    const row = await this.optionQuery(orgId).where('o.id', '=', id).executeTakeFirst();
    return row ?? null;
  }

  async insertOption(orgId: number, fields: ShippingOptionFields, at: Date): Promise<number> {
    const row = await this.db
      .insertInto('commerce_shipping_options')
      .values({
        ...fields,
        weight_rates: JSON.stringify(fields.weight_rates),
        org_id: orgId,
        created_at: at,
        updated_at: at,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async updateOption(id: number, fields: Partial<ShippingOptionFields>, at: Date): Promise<void> {
    const { weight_rates, ...rest } = fields;
    await this.db
      .updateTable('commerce_shipping_options')
      .set({
        ...rest,
        ...(weight_rates !== undefined ? { weight_rates: JSON.stringify(weight_rates) as never } : {}),
        updated_at: at,
      })
      .where('id', '=', id)
      .execute();
  }

  async deleteOption(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_shipping_options')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
