import type { Kysely, Transaction } from 'kysely';
import type {
  CommerceProductCategoryRow,
  CommerceProductCollectionRow,
  CommerceProductExtraRow,
  CommerceProductRow,
  CommerceProductVariantRow,
  CommerceTables,
  CommerceVariantPriceRow,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export type ProductRow = CommerceProductRow & CommerceProductExtraRow;
export type ProductFields = Omit<ProductRow, 'id' | 'org_id' | 'created_at' | 'updated_at'>;
export type VariantFields = Omit<
  CommerceProductVariantRow,
  'id' | 'org_id' | 'product_id' | 'created_at' | 'updated_at'
>;

/** A product with what hangs on it: variants with prices, categories, sales channels. */
export interface ProductGraph {
  readonly product: ProductRow;
  readonly variants: readonly CommerceProductVariantRow[];
  readonly prices: readonly CommerceVariantPriceRow[];
  readonly categoryIds: readonly number[];
  readonly salesChannelIds: readonly number[];
}

const JSON_COLUMNS = ['images', 'options'] as const;
const asJson = <T extends Record<string, unknown>>(row: T): T => {
  const out: Record<string, unknown> = { ...row };
  for (const c of JSON_COLUMNS) if (out[c] !== undefined) out[c] = JSON.stringify(out[c]);
  return out as T;
};

/** Products, variants and their prices, collections and categories of one organization. */
export class ShopCatalogRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): ShopCatalogRepository {
    return new ShopCatalogRepository(trx);
  }

  async product(orgId: number, id: number): Promise<ProductRow | null> {
    const row = await this.db
      .selectFrom('commerce_products')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  async graph(orgId: number, id: number): Promise<ProductGraph | null> {
    const product = await this.product(orgId, id);
    if (product === null) return null;
    const variants = await this.variants(id);
    const [prices, categories, channels] = await Promise.all([
      this.pricesOf(variants.map((v) => Number(v.id))),
      this.db
        .selectFrom('commerce_product_category_links')
        .select('category_id')
        .where('product_id', '=', id)
        .execute(),
      this.db
        .selectFrom('commerce_product_sales_channels')
        .select('sales_channel_id')
        .where('product_id', '=', id)
        .execute(),
    ]);
    return {
      product,
      variants,
      prices,
      categoryIds: categories.map((c) => Number(c.category_id)).sort((a, b) => a - b),
      salesChannelIds: channels.map((c) => Number(c.sales_channel_id)).sort((a, b) => a - b),
    };
  }

  async handleTaken(orgId: number, handle: string, exceptId: number | null): Promise<boolean> {
    let q = this.db
      .selectFrom('commerce_products')
      .select('id')
      .where('org_id', '=', orgId)
      .where('handle', '=', handle);
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insertProduct(orgId: number, fields: ProductFields, at: Date): Promise<ProductRow> {
    return this.db
      .insertInto('commerce_products')
      .values(asJson({ ...fields, org_id: orgId, created_at: at, updated_at: at }) as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateProduct(orgId: number, id: number, patch: Partial<ProductFields>, at: Date): Promise<boolean> {
    const res = await this.db
      .updateTable('commerce_products')
      .set(asJson({ ...patch, updated_at: at }) as never)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async deleteProduct(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_products')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async setCategories(productId: number, ids: readonly number[]): Promise<void> {
    await this.db.deleteFrom('commerce_product_category_links').where('product_id', '=', productId).execute();
    if (ids.length > 0)
      await this.db
        .insertInto('commerce_product_category_links')
        .values(ids.map((category_id) => ({ product_id: productId, category_id })))
        .execute();
  }

  async setSalesChannels(productId: number, ids: readonly number[]): Promise<void> {
    await this.db.deleteFrom('commerce_product_sales_channels').where('product_id', '=', productId).execute();
    if (ids.length > 0)
      await this.db
        .insertInto('commerce_product_sales_channels')
        .values(ids.map((sales_channel_id) => ({ product_id: productId, sales_channel_id })))
        .execute();
  }

  async variants(productId: number): Promise<CommerceProductVariantRow[]> {
    return this.db
      .selectFrom('commerce_product_variants')
      .selectAll()
      .where('product_id', '=', productId)
      .orderBy('rank')
      .orderBy('id')
      .execute();
  }

  async variant(orgId: number, productId: number, id: number): Promise<CommerceProductVariantRow | null> {
    const row = await this.db
      .selectFrom('commerce_product_variants')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('product_id', '=', productId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  /** SKUs among `skus` that variants other than `exceptVariantId` of the organization carry. */
  async skusTaken(orgId: number, skus: readonly string[], exceptVariantId: number | null): Promise<string[]> {
    if (skus.length === 0) return [];
    let q = this.db
      .selectFrom('commerce_product_variants')
      .select('sku')
      .where('org_id', '=', orgId)
      .where('sku', 'in', [...skus]);
    if (exceptVariantId !== null) q = q.where('id', '!=', exceptVariantId);
    return (await q.execute()).map((r) => r.sku!);
  }

  async insertVariant(orgId: number, productId: number, fields: VariantFields, at: Date): Promise<number> {
    const row = await this.db
      .insertInto('commerce_product_variants')
      .values({
        ...fields,
        options: JSON.stringify(fields.options),
        org_id: orgId,
        product_id: productId,
        created_at: at,
        updated_at: at,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async updateVariant(id: number, patch: Partial<VariantFields>, at: Date): Promise<void> {
    const { options, ...rest } = patch;
    await this.db
      .updateTable('commerce_product_variants')
      .set({
        ...rest,
        ...(options !== undefined ? { options: JSON.stringify(options) as never } : {}),
        updated_at: at,
      })
      .where('id', '=', id)
      .execute();
  }

  async deleteVariant(id: number): Promise<void> {
    await this.db.deleteFrom('commerce_product_variants').where('id', '=', id).execute();
  }

  async pricesOf(variantIds: readonly number[]): Promise<CommerceVariantPriceRow[]> {
    if (variantIds.length === 0) return [];
    return this.db
      .selectFrom('commerce_variant_prices')
      .selectAll()
      .where('variant_id', 'in', [...variantIds])
      .orderBy('currency_code')
      .execute();
  }

  /** Replaces a variant's prices (minor units). */
  async setPrices(
    variantId: number,
    prices: readonly { currency_code: string; amount: number }[],
  ): Promise<void> {
    await this.db.deleteFrom('commerce_variant_prices').where('variant_id', '=', variantId).execute();
    if (prices.length > 0)
      await this.db
        .insertInto('commerce_variant_prices')
        .values(
          prices.map((p) => ({ variant_id: variantId, currency_code: p.currency_code, amount: p.amount })),
        )
        .execute();
  }

  async touchProduct(id: number, at: Date): Promise<void> {
    await this.db.updateTable('commerce_products').set({ updated_at: at }).where('id', '=', id).execute();
  }

  // Collections

  async collections(orgId: number): Promise<CommerceProductCollectionRow[]> {
    return this.db
      .selectFrom('commerce_product_collections')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('id')
      .execute();
  }

  async collection(orgId: number, id: number): Promise<CommerceProductCollectionRow | null> {
    const row = await this.db
      .selectFrom('commerce_product_collections')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  async insertCollection(
    orgId: number,
    title: string,
    handle: string,
    at: Date,
  ): Promise<CommerceProductCollectionRow> {
    return this.db
      .insertInto('commerce_product_collections')
      .values({ org_id: orgId, title, handle, created_at: at, updated_at: at } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateCollection(
    orgId: number,
    id: number,
    patch: { title?: string; handle?: string },
    at: Date,
  ): Promise<CommerceProductCollectionRow | null> {
    const row = await this.db
      .updateTable('commerce_product_collections')
      .set({ ...patch, updated_at: at })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async deleteCollection(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_product_collections')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  // Categories

  async categories(orgId: number): Promise<CommerceProductCategoryRow[]> {
    return this.db
      .selectFrom('commerce_product_categories')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('rank')
      .orderBy('id')
      .execute();
  }

  async category(orgId: number, id: number): Promise<CommerceProductCategoryRow | null> {
    const row = await this.db
      .selectFrom('commerce_product_categories')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Which of `ids` are categories (or collections, shipping profiles) of the organization. */
  async existing(
    table:
      | 'commerce_product_categories'
      | 'commerce_product_collections'
      | 'commerce_shipping_profiles'
      | 'commerce_sales_channels',
    orgId: number,
    ids: readonly number[],
  ): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await (this.db as Kysely<CommerceTables>)
      .selectFrom(table as 'commerce_product_categories')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  async categoryHandleTaken(orgId: number, handle: string, exceptId: number | null): Promise<boolean> {
    let q = this.db
      .selectFrom('commerce_product_categories')
      .select('id')
      .where('org_id', '=', orgId)
      .where('handle', '=', handle);
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async collectionHandleTaken(orgId: number, handle: string, exceptId: number | null): Promise<boolean> {
    let q = this.db
      .selectFrom('commerce_product_collections')
      .select('id')
      .where('org_id', '=', orgId)
      .where('handle', '=', handle);
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insertCategory(
    orgId: number,
    fields: Omit<CommerceProductCategoryRow, 'id' | 'org_id' | 'created_at' | 'updated_at'>,
    at: Date,
  ): Promise<CommerceProductCategoryRow> {
    return this.db
      .insertInto('commerce_product_categories')
      .values({ ...fields, org_id: orgId, created_at: at, updated_at: at } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async updateCategory(
    orgId: number,
    id: number,
    patch: Partial<Omit<CommerceProductCategoryRow, 'id' | 'org_id' | 'created_at' | 'updated_at'>>,
    at: Date,
  ): Promise<CommerceProductCategoryRow | null> {
    const row = await this.db
      .updateTable('commerce_product_categories')
      .set({ ...patch, updated_at: at })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  async hasChildren(id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('commerce_product_categories')
      .select('id')
      .where('parent_id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteCategory(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_product_categories')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
