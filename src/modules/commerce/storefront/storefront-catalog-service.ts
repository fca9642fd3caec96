import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { StoreProductsCache } from './store-products-cache.ts';
import { categoryNotFound, collectionNotFound, regionNotFound } from '../commerce-errors.ts';
import { majorUnits } from '../money/money-amounts.ts';
import { ShopRegionsRepository } from '../regions/shop-regions-repository.ts';
import {
  StorefrontCatalogRepository,
  type StoreProductFilter,
  type StoreProductOrder,
  type StoreVariantJson,
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
  /** Product pages until the shop changes (store-products-cache.ts). */
  readonly productPages: StoreProductsCache<{ rows: StoreProductView[]; count: number }>;

  constructor(ctx: CommerceContext) {
    this.repo = new StorefrontCatalogRepository(ctx.db);
    this.regions = new ShopRegionsRepository(ctx.db);
    this.productPages = new StoreProductsCache(() => ctx.clock.now());
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

  /** A page of products with their variants, prices and stock: one query (two with a region), whatever the page. */
  async products(
    caller: StoreCaller,
    query: StoreProductsQuery,
  ): Promise<{ rows: StoreProductView[]; count: number }> {
    const key = `${caller.salesChannelId}|${JSON.stringify(query)}`;
    const cached = this.productPages.get(caller.orgId, key);
    if (cached !== undefined) return cached;
    const version = this.productPages.versionOf(caller.orgId);
    const page = await this.readProducts(caller, query);
    this.productPages.set(caller.orgId, key, version, page);
    return page;
  }

  private async readProducts(
    caller: StoreCaller,
    query: StoreProductsQuery,
  ): Promise<{ rows: StoreProductView[]; count: number }> {
    const [currency, page] = await Promise.all([
      query.regionId === undefined ? null : this.regionCurrency(caller.orgId, query.regionId),
      this.repo.products(caller.orgId, caller.salesChannelId, query, query.order, query.limit, query.offset),
    ]);
    return {
      rows: page.rows.map((p) =>
        storeProductView(
          p,
          p.variants.map((v) => storeVariant(v, currency)),
        ),
      ),
      count: page.count,
    };
  }

  /** A region of another shop, or none, is a bad filter: 422 naming `region_id`. */
  private async regionCurrency(orgId: number, regionId: number): Promise<string> {
    const currency = await this.repo.regionCurrency(orgId, regionId);
    if (currency === null) throw invalidField(['query', 'region_id'], 'Unknown region', regionId);
    return currency;
  }
}

function storeVariant(v: StoreVariantJson, currency: string | null): StoreVariantView {
  const shown = v.prices.map((p) => ({
    currency_code: p.currency_code,
    amount: majorUnits(p.amount, p.currency_code),
  }));
  // A managed variant without a SKU has no inventory to count: none available.
  const quantity = v.available === null ? null : Math.max(0, Number(v.available));
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
