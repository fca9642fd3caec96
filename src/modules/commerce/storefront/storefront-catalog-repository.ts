import { sql, type Kysely } from 'kysely';
import type {
  CommerceProductCategoryRow,
  CommerceProductCollectionRow,
  CommerceProductVariantRow,
  CommerceTables,
  CommerceVariantPriceRow,
} from '../commerce-tables.ts';
import type { ProductRow } from '../catalog/shop-catalog-repository.ts';

export type StoreProductOrder = '-created_at' | 'created_at' | '-title' | 'title';

export interface StoreProductFilter {
  readonly collectionHandle?: string;
  readonly categoryHandle?: string;
  readonly q?: string;
}

export interface Paged<T> {
  readonly rows: T[];
  readonly count: number;
}

const ORDER: Record<StoreProductOrder, { column: 'created_at' | 'title'; dir: 'asc' | 'desc' }> = {
  '-created_at': { column: 'created_at', dir: 'desc' },
  created_at: { column: 'created_at', dir: 'asc' },
  '-title': { column: 'title', dir: 'desc' },
  title: { column: 'title', dir: 'asc' },
};

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
const likePattern = (q: string): string => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The Store API's reads of the catalogue: only what a shopper of one sales channel may see. A page
 * of products costs one query (its rows and the total by a window count), then one for the page's
 * variants, one for their prices, and one for the stock of their managed SKUs.
 */
export class StorefrontCatalogRepository {
  constructor(private readonly db: Kysely<CommerceTables>) {}

  /**
   * Published products in the channel (none when the channel is disabled), newest first by
   * default, ties by id in the same direction.
   */
  async products(
    orgId: number,
    channelId: number,
    filter: StoreProductFilter,
    order: StoreProductOrder,
    limit: number,
    offset: number,
  ): Promise<Paged<ProductRow>> {
    const { column, dir } = ORDER[order];
    let q = this.db
      .selectFrom('commerce_products as p')
      .selectAll('p')
      .select(sql<string>`count(*) over ()`.as('total'))
      .where('p.org_id', '=', orgId)
      .where('p.status', '=', 'published')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('commerce_product_sales_channels as psc')
            .innerJoin('commerce_sales_channels as sc', 'sc.id', 'psc.sales_channel_id')
            .select(sql`1`.as('one'))
            .whereRef('psc.product_id', '=', 'p.id')
            .where('psc.sales_channel_id', '=', channelId)
            .where('sc.is_disabled', '=', false),
        ),
      );
    if (filter.collectionHandle !== undefined) {
      const handle = filter.collectionHandle;
      q = q.where('p.collection_id', 'in', (eb) =>
        eb
          .selectFrom('commerce_product_collections')
          .select('id')
          .where('org_id', '=', orgId)
          .where('handle', '=', handle),
      );
    }
    if (filter.categoryHandle !== undefined) {
      const handle = filter.categoryHandle;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('commerce_product_category_links as l')
            .innerJoin('commerce_product_categories as c', 'c.id', 'l.category_id')
            .select(sql`1`.as('one'))
            .whereRef('l.product_id', '=', 'p.id')
            .where('c.org_id', '=', orgId)
            .where('c.handle', '=', handle)
            .where('c.is_active', '=', true)
            .where('c.is_public', '=', true),
        ),
      );
    }
    if (filter.q !== undefined) q = q.where('p.title', 'ilike', likePattern(filter.q));
    const rows = await q
      .orderBy(`p.${column}`, dir)
      .orderBy('p.id', dir)
      .limit(limit)
      .offset(offset)
      .execute();
    // A page past the end has no row to carry the total: count apart then.
    const count =
      rows.length > 0
        ? Number(rows[0]!.total)
        : offset === 0
          ? 0
          : Number(
              (
                await q
                  .clearSelect()
                  .select((eb) => eb.fn.countAll<string>().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            );
    return { rows: rows.map(({ total: _total, ...row }) => row), count };
  }

  async variantsOf(productIds: readonly number[]): Promise<CommerceProductVariantRow[]> {
    if (productIds.length === 0) return [];
    return this.db
      .selectFrom('commerce_product_variants')
      .selectAll()
      .where('product_id', 'in', [...productIds])
      .orderBy('product_id')
      .orderBy('rank')
      .orderBy('id')
      .execute();
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

  /** Stocked − reserved of each SKU, summed over the stock locations serving the channel. */
  async availableBySku(
    orgId: number,
    channelId: number,
    skus: readonly string[],
  ): Promise<Map<string, number>> {
    if (skus.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('commerce_inventory_levels as il')
      .innerJoin('commerce_stock_location_channels as slc', 'slc.stock_location_id', 'il.stock_location_id')
      .select('il.sku')
      .select(sql<string>`sum(il.stocked_quantity - il.reserved_quantity)`.as('available'))
      .where('il.org_id', '=', orgId)
      .where('slc.sales_channel_id', '=', channelId)
      .where('il.sku', 'in', [...skus])
      .groupBy('il.sku')
      .execute();
    return new Map(rows.map((r) => [r.sku, Number(r.available)]));
  }

  async collections(
    orgId: number,
    limit: number,
    offset: number,
  ): Promise<Paged<CommerceProductCollectionRow>> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('commerce_product_collections')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db
        .selectFrom('commerce_product_collections')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('org_id', '=', orgId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, count: Number(total.n) };
  }

  async collectionByHandle(orgId: number, handle: string): Promise<CommerceProductCollectionRow | null> {
    const row = await this.db
      .selectFrom('commerce_product_collections')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('handle', '=', handle)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Every active, public category of the shop; the tree (and hidden ancestors) is the service's. */
  async visibleCategories(orgId: number): Promise<CommerceProductCategoryRow[]> {
    return this.db
      .selectFrom('commerce_product_categories')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('is_active', '=', true)
      .where('is_public', '=', true)
      .orderBy('rank')
      .orderBy('id')
      .execute();
  }
}
