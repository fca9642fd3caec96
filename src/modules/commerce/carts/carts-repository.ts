import type { Kysely, Transaction } from 'kysely';
import type {
  CommerceCartLineItemRow,
  CommerceCartRow,
  CommerceCartShippingMethodRow,
  CommerceProductVariantRow,
  CommerceTables,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export type CartFields = Omit<CommerceCartRow, 'id' | 'created_at' | 'updated_at' | 'completed_at'>;
export type CartPatch = Partial<
  Omit<CommerceCartRow, 'id' | 'org_id' | 'sales_channel_id' | 'mode' | 'created_at' | 'updated_at'>
>;
export type LineFields = Omit<CommerceCartLineItemRow, 'id' | 'created_at' | 'updated_at'>;
/** A line with the weight of its variant now (the variant's, else its product's; grams). */
export type CartLineRow = CommerceCartLineItemRow & { weight: number | null };

/** A variant as a cart sees it: its product's title, status, profile, channel and price. */
export type SellableVariant = CommerceProductVariantRow & {
  product_title: string;
  product_status: string;
  shipping_profile_id: number | null;
  in_channel: boolean;
  /** Minor units in the asked currency, null when it has no price there. */
  price: string | number | null;
};

const JSON_COLUMNS = ['shipping_address', 'billing_address', 'metadata'] as const;
const asJson = <T extends Record<string, unknown>>(row: T): T => {
  const out: Record<string, unknown> = { ...row };
  for (const c of JSON_COLUMNS) if (out[c] !== undefined && out[c] !== null) out[c] = JSON.stringify(out[c]);
  return out as T;
};

/** Carts, their line items and shipping methods, and what pricing and stock checks read. */
export class CartsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): CartsRepository {
    return new CartsRepository(trx);
  }

  async insertCart(fields: CartFields, at: Date): Promise<number> {
    const row = await this.db
      .insertInto('commerce_carts')
      .values({ ...asJson(fields), created_at: at, updated_at: at } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** One cart of the organization; `lock` holds its row until the transaction ends. */
  async cart(orgId: number, id: number, lock = false): Promise<CommerceCartRow | null> {
    let q = this.db.selectFrom('commerce_carts').selectAll().where('org_id', '=', orgId).where('id', '=', id);
    if (lock) q = q.forUpdate();
    return (await q.executeTakeFirst()) ?? null;
  }

  async updateCart(id: number, patch: CartPatch, at: Date): Promise<void> {
    await this.db
      .updateTable('commerce_carts')
      .set({ ...asJson(patch), updated_at: at } as never)
      .where('id', '=', id)
      .execute();
  }

  async lines(cartId: number): Promise<CartLineRow[]> {
    const rows = await this.db
      .selectFrom('commerce_cart_line_items as li')
      .leftJoin('commerce_product_variants as v', 'v.id', 'li.variant_id')
      .leftJoin('commerce_products as p', 'p.id', 'li.product_id')
      .selectAll('li')
      .select(['v.weight as variant_weight', 'p.weight as product_weight'])
      .where('li.cart_id', '=', cartId)
      .orderBy('li.id')
      .execute();
    return rows.map(({ variant_weight, product_weight, ...line }) => ({
      ...line,
      weight: variant_weight ?? product_weight ?? null,
    }));
  }

  async insertLine(fields: LineFields, at: Date): Promise<number> {
    const row = await this.db
      .insertInto('commerce_cart_line_items')
      .values({
        ...fields,
        metadata: JSON.stringify(fields.metadata),
        created_at: at,
        updated_at: at,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async updateLine(id: number, patch: { quantity?: number; unit_price?: number }, at: Date): Promise<void> {
    await this.db
      .updateTable('commerce_cart_line_items')
      .set({ ...patch, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async deleteLine(id: number): Promise<void> {
    await this.db.deleteFrom('commerce_cart_line_items').where('id', '=', id).execute();
  }

  async methods(cartId: number): Promise<CommerceCartShippingMethodRow[]> {
    return this.db
      .selectFrom('commerce_cart_shipping_methods')
      .selectAll()
      .where('cart_id', '=', cartId)
      .orderBy('id')
      .execute();
  }

  /** The cart's method for the option's profile, made or replaced. */
  async putMethod(fields: Omit<CommerceCartShippingMethodRow, 'id' | 'created_at'>, at: Date): Promise<void> {
    await this.db
      .insertInto('commerce_cart_shipping_methods')
      .values({ ...fields, created_at: at } as never)
      .onConflict((oc) =>
        oc.columns(['cart_id', 'shipping_profile_id']).doUpdateSet({
          shipping_option_id: fields.shipping_option_id,
          name: fields.name,
          amount: fields.amount,
          created_at: at,
        }),
      )
      .execute();
  }

  async setMethodAmount(id: number, amount: number): Promise<void> {
    await this.db
      .updateTable('commerce_cart_shipping_methods')
      .set({ amount })
      .where('id', '=', id)
      .execute();
  }

  async deleteMethod(id: number): Promise<void> {
    await this.db.deleteFrom('commerce_cart_shipping_methods').where('id', '=', id).execute();
  }

  async markCompleted(id: number, at: Date): Promise<void> {
    await this.db
      .updateTable('commerce_carts')
      .set({ completed_at: at, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  /** A variant of the organization with what selling it in `channelId` and `currency` needs. */
  async sellableVariant(
    orgId: number,
    variantId: number,
    channelId: number,
    currency: string,
  ): Promise<SellableVariant | null> {
    const row = await this.db
      .selectFrom('commerce_product_variants as v')
      .innerJoin('commerce_products as p', 'p.id', 'v.product_id')
      .leftJoin('commerce_variant_prices as vp', (j) =>
        j.onRef('vp.variant_id', '=', 'v.id').on('vp.currency_code', '=', currency),
      )
      .selectAll('v')
      .select((eb) => [
        'p.title as product_title',
        'p.status as product_status',
        'p.shipping_profile_id',
        'vp.amount as price',
        eb
          .exists(
            eb
              .selectFrom('commerce_product_sales_channels as pc')
              .select('pc.product_id')
              .whereRef('pc.product_id', '=', 'p.id')
              .where('pc.sales_channel_id', '=', channelId),
          )
          .as('in_channel'),
      ])
      .where('v.org_id', '=', orgId)
      .where('v.id', '=', variantId)
      .executeTakeFirst();
    return row === undefined ? null : { ...row, in_channel: Boolean(row.in_channel) };
  }

  /** The prices of `variantIds` in `currency`, by variant id (minor units). */
  async prices(variantIds: readonly number[], currency: string): Promise<Map<number, number>> {
    if (variantIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('commerce_variant_prices')
      .selectAll()
      .where('variant_id', 'in', [...variantIds])
      .where('currency_code', '=', currency)
      .execute();
    return new Map(rows.map((r) => [Number(r.variant_id), Number(r.amount)]));
  }

  /** Stocked − reserved of a SKU over the stock locations serving the sales channel. */
  async available(orgId: number, channelId: number, sku: string): Promise<number> {
    const row = await this.db
      .selectFrom('commerce_inventory_levels as l')
      .innerJoin('commerce_stock_location_channels as c', 'c.stock_location_id', 'l.stock_location_id')
      .select((eb) =>
        eb.fn
          .coalesce(
            eb.fn.sum<number>(eb('l.stocked_quantity', '-', eb.ref('l.reserved_quantity'))),
            eb.lit(0),
          )
          .as('n'),
      )
      .where('l.org_id', '=', orgId)
      .where('l.sku', '=', sku)
      .where('c.sales_channel_id', '=', channelId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The region holding a country in the organization's shop, if any. */
  async regionOfCountry(orgId: number, country: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('commerce_region_countries')
      .select('region_id')
      .where('org_id', '=', orgId)
      .where('country_code', '=', country)
      .executeTakeFirst();
    return row === undefined ? null : Number(row.region_id);
  }

  /** The oldest region of the shop, of `currency` when given. */
  async firstRegion(orgId: number, currency: string | null): Promise<number | null> {
    let q = this.db.selectFrom('commerce_regions').select('id').where('org_id', '=', orgId);
    if (currency !== null) q = q.where('currency_code', '=', currency);
    const row = await q.orderBy('id').limit(1).executeTakeFirst();
    return row === undefined ? null : Number(row.id);
  }
}
