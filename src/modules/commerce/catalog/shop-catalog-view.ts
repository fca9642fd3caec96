import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type {
  CommerceProductCategoryRow,
  CommerceProductCollectionRow,
  CommerceProductVariantRow,
  CommerceVariantPriceRow,
} from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { ProductGraph, ProductRow } from './shop-catalog-repository.ts';

const iso = (d: Date): string => new Date(d).toISOString();

/** A price as shown: the amount in the currency's major units (EUR 12.34, JPY 1200). */
export type PriceView = JsonView<Omit<CommerceVariantPriceRow, 'variant_id' | 'amount'>> & { amount: number };
export type VariantView = JsonView<Omit<CommerceProductVariantRow, 'org_id' | 'product_id'>> & {
  prices: PriceView[];
};
export type ProductDetailView = JsonView<Omit<ProductRow, 'org_id'>> & {
  category_ids: number[];
  sales_channel_ids: number[];
  variants: VariantView[];
};
export type CollectionView = JsonView<Omit<CommerceProductCollectionRow, 'org_id'>>;
export type CategoryView = JsonView<Omit<CommerceProductCategoryRow, 'org_id'>>;

export function priceView(p: CommerceVariantPriceRow): PriceView {
  return { currency_code: p.currency_code, amount: majorUnits(p.amount, p.currency_code) };
}

export function variantView(
  v: CommerceProductVariantRow,
  prices: readonly CommerceVariantPriceRow[],
): VariantView {
  return {
    id: Number(v.id),
    title: v.title,
    sku: v.sku,
    options: v.options,
    manage_inventory: v.manage_inventory,
    allow_backorder: v.allow_backorder,
    weight: v.weight,
    rank: v.rank,
    prices: prices.filter((p) => Number(p.variant_id) === Number(v.id)).map(priceView),
    created_at: iso(v.created_at),
    updated_at: iso(v.updated_at),
  };
}

export function productDetailView(g: ProductGraph): ProductDetailView {
  const p = g.product;
  return {
    id: Number(p.id),
    title: p.title,
    handle: p.handle,
    status: p.status,
    subtitle: p.subtitle,
    description: p.description,
    images: p.images,
    options: p.options,
    weight: p.weight,
    collection_id: p.collection_id === null ? null : Number(p.collection_id),
    shipping_profile_id: p.shipping_profile_id === null ? null : Number(p.shipping_profile_id),
    is_gift_card: p.is_gift_card,
    category_ids: [...g.categoryIds],
    sales_channel_ids: [...g.salesChannelIds],
    variants: g.variants.map((v) => variantView(v, g.prices)),
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
  };
}

export function collectionView(r: CommerceProductCollectionRow): CollectionView {
  return {
    id: Number(r.id),
    title: r.title,
    handle: r.handle,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export function categoryView(r: CommerceProductCategoryRow): CategoryView {
  return {
    id: Number(r.id),
    name: r.name,
    handle: r.handle,
    parent_id: r.parent_id === null ? null : Number(r.parent_id),
    is_active: r.is_active,
    is_public: r.is_public,
    rank: r.rank,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
