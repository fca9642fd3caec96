import { sql, type Kysely } from 'kysely';
import type {
  CommerceProductCategoryRow,
  CommerceProductCollectionRow,
  CommerceTables,
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

/** A variant as the page query builds it (JSON): prices in minor units, units available. */
export interface StoreVariantJson {
  id: number;
  title: string;
  sku: string | null;
  options: Record<string, string>;
  manage_inventory: boolean;
  allow_backorder: boolean;
  prices: { currency_code: string; amount: number }[];
  /** Stocked − reserved over the channel's stock locations; null when stock is not managed. */
  available: number | null;
}

export type StoreProductRow = Omit<ProductRow, 'org_id' | 'status' | 'shipping_profile_id'> & {
  variants: StoreVariantJson[];
};

/**
 * The Store API's reads of the catalogue: only what a shopper of one sales channel may see. A page
 * of products is one query: the page's rows with the total (a window count), and for those rows
 * only, their variants with prices and stock, built as JSON by the database.
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
  ): Promise<Paged<StoreProductRow>> {
    const { column, dir } = ORDER[order];
    const visible = this.visibleProducts(orgId, channelId, filter);
    const page = visible
      .select([
        'p.id',
        'p.title',
        'p.handle',
        'p.subtitle',
        'p.description',
        'p.images',
        'p.options',
        'p.weight',
        'p.collection_id',
        'p.created_at',
        'p.updated_at',
      ])
      .select(sql<string>`count(*) over ()`.as('total'))
      .orderBy(`p.${column}`, dir)
      .orderBy('p.id', dir)
      .limit(limit)
      .offset(offset);
    const sort = sql.raw(dir);
    const { rows } = await sql<StoreProductRow & { total: string; variants: StoreVariantJson[] | null }>`
      select page.*, vs.variants from (${page}) page
      left join lateral (${variantsJson(orgId, channelId)}) vs on true
      order by ${sql.ref(`page.${column}`)} ${sort}, page.id ${sort}`.execute(this.db);
    // A page past the end has no row to carry the total: count apart then.
    const count =
      rows.length > 0
        ? Number(rows[0]!.total)
        : offset === 0
          ? 0
          : Number(
              (await visible.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
            );
    return {
      rows: rows.map(({ total: _total, variants, ...row }) => ({ ...row, variants: variants ?? [] })),
      count,
    };
  }

  /** The products a shopper of the channel may see, filtered; no columns chosen yet. */
  private visibleProducts(orgId: number, channelId: number, filter: StoreProductFilter) {
    let q = this.db
      .selectFrom('commerce_products as p')
      .innerJoin('commerce_product_sales_channels as psc', (j) =>
        j.onRef('psc.product_id', '=', 'p.id').on('psc.sales_channel_id', '=', channelId),
      )
      .where('p.org_id', '=', orgId)
      .where('p.status', '=', 'published')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('commerce_sales_channels as sc')
            .select(sql`1`.as('one'))
            .where('sc.id', '=', channelId)
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
    return q;
  }

  /** A region's currency, or null when the shop has no such region. */
  async regionCurrency(orgId: number, regionId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('commerce_regions')
      .select('currency_code')
      .where('org_id', '=', orgId)
      .where('id', '=', regionId)
      .executeTakeFirst();
    return row?.currency_code ?? null;
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

/**
 * The variants of the product `page.id` as one JSON array (rank, then id), each with its prices
 * (by currency, minor units) and, when its stock is managed, the units available in the stock
 * locations serving the channel. Null when the product has no variant.
 */
function variantsJson(orgId: number, channelId: number) {
  return sql`
    select json_agg(json_build_object(
      'id', v.id, 'title', v.title, 'sku', v.sku, 'options', v.options,
      'manage_inventory', v.manage_inventory, 'allow_backorder', v.allow_backorder,
      'prices', coalesce((
        select json_agg(json_build_object('currency_code', vp.currency_code, 'amount', vp.amount)
                        order by vp.currency_code)
        from commerce_variant_prices vp where vp.variant_id = v.id), '[]'::json),
      'available', case when v.manage_inventory then (
        select coalesce(sum(il.stocked_quantity - il.reserved_quantity), 0)
        from commerce_inventory_levels il
        join commerce_stock_location_channels slc on slc.stock_location_id = il.stock_location_id
        where il.org_id = ${orgId} and il.sku = v.sku and slc.sales_channel_id = ${channelId}) end
    ) order by v.rank, v.id) as variants
    from commerce_product_variants v where v.product_id = page.id`;
}
