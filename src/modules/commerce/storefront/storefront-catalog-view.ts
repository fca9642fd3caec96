import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type {
  CommerceProductCategoryRow,
  CommerceProductCollectionRow,
  CommerceProductVariantRow,
  CommerceRegionRow,
} from '../commerce-tables.ts';
import type { ProductRow } from '../catalog/shop-catalog-repository.ts';
import type { StoreProductRow } from './storefront-catalog-repository.ts';
import type { PriceView } from '../catalog/shop-catalog-view.ts';
import type { RegionWithCountries } from '../regions/shop-regions-repository.ts';

const iso = (d: Date): string => new Date(d).toISOString();

/** A region as a shopper picks it: countries, currency, tax, payment providers. */
export type StoreRegionView = JsonView<
  Omit<CommerceRegionRow, 'org_id' | 'tax_rate' | 'created_at' | 'updated_at'>
> & {
  tax_rate: number;
  countries: string[];
};

export type StoreCategoryView = JsonView<
  Omit<CommerceProductCategoryRow, 'org_id' | 'is_active' | 'is_public' | 'created_at' | 'updated_at'>
> & { children: StoreCategoryView[] };

export type StoreCollectionView = JsonView<
  Omit<CommerceProductCollectionRow, 'org_id' | 'created_at' | 'updated_at'>
>;

export type StoreVariantView = JsonView<
  Omit<CommerceProductVariantRow, 'org_id' | 'product_id' | 'weight' | 'rank' | 'created_at' | 'updated_at'>
> & {
  prices: PriceView[];
  /** The price in the asked region's currency; null without a region or a price in it. */
  calculated_price: PriceView | null;
  /** Available units in the key's channel's stock locations; null when stock is not managed. */
  inventory_quantity: number | null;
  in_stock: boolean;
};

/** A product as a shopper sees it: no status (always published), no shipping profile. */
export type StoreProductView = JsonView<
  Omit<ProductRow, 'org_id' | 'status' | 'shipping_profile_id' | 'is_gift_card'>
> & {
  variants: StoreVariantView[];
};

export function storeRegionView(r: RegionWithCountries): StoreRegionView {
  return {
    id: Number(r.id),
    name: r.name,
    currency_code: r.currency_code,
    countries: r.countries,
    tax_rate: Number(r.tax_rate),
    tax_inclusive: r.tax_inclusive,
    payment_providers: r.payment_providers,
  };
}

export function storeCollectionView(r: CommerceProductCollectionRow): StoreCollectionView {
  return { id: Number(r.id), title: r.title, handle: r.handle };
}

/**
 * The visible categories as a tree: roots first, children nested, each level by rank then id. A
 * category whose parent is not among `visible` (inactive or not public, or under such) is dropped
 * with its whole branch.
 */
export function categoryForest(visible: readonly CommerceProductCategoryRow[]): StoreCategoryView[] {
  const nodes = new Map<number, StoreCategoryView>();
  for (const r of visible)
    nodes.set(Number(r.id), {
      id: Number(r.id),
      name: r.name,
      handle: r.handle,
      parent_id: r.parent_id === null ? null : Number(r.parent_id),
      rank: r.rank,
      children: [],
    });
  const roots: StoreCategoryView[] = [];
  // `visible` is ordered by rank then id, so appending keeps every level in that order.
  for (const node of nodes.values()) {
    if (node.parent_id === null) roots.push(node);
    else nodes.get(node.parent_id)?.children.push(node);
  }
  return roots;
}

export function storeProductView(p: StoreProductRow, variants: StoreVariantView[]): StoreProductView {
  return {
    id: Number(p.id),
    title: p.title,
    handle: p.handle,
    subtitle: p.subtitle,
    description: p.description,
    images: p.images,
    options: p.options,
    weight: p.weight,
    collection_id: p.collection_id === null ? null : Number(p.collection_id),
    variants,
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  };
}
