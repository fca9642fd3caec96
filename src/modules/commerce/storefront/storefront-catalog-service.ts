import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { categoryNotFound, collectionNotFound, regionNotFound } from '../commerce-errors.ts';
import type { CommerceProductVariantRow, CommerceVariantPriceRow } from '../commerce-tables.ts';
import { priceView } from '../catalog/shop-catalog-view.ts';
import { ShopRegionsRepository } from '../regions/shop-regions-repository.ts';
import {
  StorefrontCatalogRepository,
  type StoreProductFilter,
  type StoreProductOrder,
} from './storefront-catalog-repository.ts';
import {
  categoryForest,
  storeCollectionView,
  storeProductView,
  storeRegionView,
  type StoreCategoryView,
  type StoreCollectionView,
  type StoreProductView,
  type StoreRegionView,
  type StoreVariantView,
} from './storefront-catalog-view.ts';

/** Whose store is read: the key's organization and sales channel (request.principal). */
export interface StoreCaller {
  readonly orgId: number;
  readonly salesChannelId: number;
}

export interface StoreProductsQuery extends StoreProductFilter {
  readonly order: StoreProductOrder;
  readonly regionId?: number;
  readonly limit: number;
  readonly offset: number;
}

/** The Store API's catalogue: regions, categories, collections and products a shopper may see. */
export class StorefrontCatalogService {
  private readonly repo: StorefrontCatalogRepository;
  private readonly regions: ShopRegionsRepository;

  constructor(ctx: CommerceContext) {
    this.repo = new StorefrontCatalogRepository(ctx.db);
    this.regions = new ShopRegionsRepository(ctx.db);
  }

  async listRegions(orgId: number): Promise<StoreRegionView[]> {
    return (await this.regions.list(orgId)).map(storeRegionView);
  }

  async region(orgId: number, id: number): Promise<StoreRegionView> {
    const row = await this.regions.byId(orgId, id);
    if (row === null) throw regionNotFound();
    return storeRegionView(row);
  }

  async categoryTree(orgId: number): Promise<StoreCategoryView[]> {
    return categoryForest(await this.repo.visibleCategories(orgId));
  }

  /** One category reachable in the visible tree, with its children; hidden or under hidden → 404. */
  async category(orgId: number, handle: string): Promise<StoreCategoryView> {
    const stack = await this.categoryTree(orgId);
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      if (node.handle === handle) return node;
      stack.push(...node.children);
    }
    throw categoryNotFound();
  }

  async collections(
    orgId: number,
    limit: number,
    offset: number,
  ): Promise<{ rows: StoreCollectionView[]; count: number }> {
    const page = await this.repo.collections(orgId, limit, offset);
    return { rows: page.rows.map(storeCollectionView), count: page.count };
  }

  async collection(orgId: number, handle: string): Promise<StoreCollectionView> {
    const row = await this.repo.collectionByHandle(orgId, handle);
    if (row === null) throw collectionNotFound();
    return storeCollectionView(row);
  }

  /** A page of products with their variants, prices and stock: five queries at most, whatever the page. */
  async products(
    caller: StoreCaller,
    query: StoreProductsQuery,
  ): Promise<{ rows: StoreProductView[]; count: number }> {
    const currency =
      query.regionId === undefined ? null : await this.regionCurrency(caller.orgId, query.regionId);
    const page = await this.repo.products(
      caller.orgId,
      caller.salesChannelId,
      query,
      query.order,
      query.limit,
      query.offset,
    );
    const variants = await this.repo.variantsOf(page.rows.map((p) => Number(p.id)));
    const managedSkus = variants.filter((v) => v.manage_inventory && v.sku !== null).map((v) => v.sku!);
    const [prices, stock] = await Promise.all([
      this.repo.pricesOf(variants.map((v) => Number(v.id))),
      this.repo.availableBySku(caller.orgId, caller.salesChannelId, managedSkus),
    ]);
    const byVariant = groupBy(prices, (p) => Number(p.variant_id));
    const byProduct = groupBy(
      variants.map((v) => storeVariant(v, byVariant.get(Number(v.id)) ?? [], currency, stock)),
      (_v, i) => Number(variants[i]!.product_id),
    );
    return {
      rows: page.rows.map((p) => storeProductView(p, byProduct.get(Number(p.id)) ?? [])),
      count: page.count,
    };
  }

  /** A region of another shop, or none, is a bad filter: 422 naming `region_id`. */
  private async regionCurrency(orgId: number, regionId: number): Promise<string> {
    const region = await this.regions.byId(orgId, regionId);
    if (region === null) throw invalidField(['query', 'region_id'], 'Unknown region', regionId);
    return region.currency_code;
  }
}

function storeVariant(
  v: CommerceProductVariantRow,
  prices: readonly CommerceVariantPriceRow[],
  currency: string | null,
  stock: ReadonlyMap<string, number>,
): StoreVariantView {
  const shown = prices.map(priceView);
  const managed = v.manage_inventory && v.sku !== null;
  // A managed variant without a SKU has no inventory to count: it is shown as not stocked.
  const quantity = v.manage_inventory ? (managed ? Math.max(0, stock.get(v.sku!) ?? 0) : 0) : null;
  return {
    id: Number(v.id),
    title: v.title,
    sku: v.sku,
    options: v.options,
    prices: shown,
    calculated_price: currency === null ? null : (shown.find((p) => p.currency_code === currency) ?? null),
    manage_inventory: v.manage_inventory,
    allow_backorder: v.allow_backorder,
    inventory_quantity: quantity,
    in_stock: quantity === null || v.allow_backorder || quantity > 0,
  };
}

function groupBy<T>(items: readonly T[], key: (item: T, index: number) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  items.forEach((item, i) => {
    const k = key(item, i);
    const list = out.get(k);
    if (list === undefined) out.set(k, [item]);
    else list.push(item);
  });
  return out;
}
