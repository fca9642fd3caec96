import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { limitOffsetQuery } from '../../../kernel/paging/paging.ts';
import type {
  StoreCategoryView,
  StoreCollectionView,
  StoreProductView,
  StoreRegionView,
  StoreVariantView,
} from './storefront-catalog-view.ts';

const Slug = Type.String({ minLength: 1, maxLength: 64 });
const HandleParam = Type.String({ minLength: 1, maxLength: 100 });

export const StoreRegionParams = Type.Object({ org_slug: Slug, region_id: Type.Integer({ minimum: 1 }) });
export const StoreHandleParams = Type.Object({ org_slug: Slug, handle: HandleParam });

export const StoreCollectionsQuery = limitOffsetQuery(50, 100);

export const StoreProductsQuery = Type.Object({
  ...limitOffsetQuery(20, 100).properties,
  order: Type.Union(
    [Type.Literal('-created_at'), Type.Literal('created_at'), Type.Literal('-title'), Type.Literal('title')],
    { default: '-created_at', description: 'newest first by default; ties by id in the same direction' },
  ),
  region_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'prices each variant in this region’s currency (calculated_price); unknown → 422',
    }),
  ),
  collection_handle: Type.Optional(HandleParam),
  category_handle: Type.Optional(HandleParam),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'part of the title, any case' })),
});

export const StoreRegionResponse = describes<StoreRegionView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    currency_code: Type.String(),
    countries: Type.Array(Type.String(), { description: 'ISO 3166-1 alpha-2, upper case' }),
    tax_rate: Type.Number({ description: 'percent (19 is 19 %)' }),
    tax_inclusive: Type.Boolean({ description: 'whether prices in this region include tax' }),
    payment_providers: Type.Array(Type.String()),
  }),
);

/** A node of the tree; its children are nodes of the same shape (declared loosely: a schema can't nest itself here). */
export const StoreCategoryResponse = describes<StoreCategoryView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    handle: Type.String(),
    parent_id: Nullable(Type.Integer()),
    rank: Type.Integer(),
    children: Type.Array(
      Type.Unsafe<StoreCategoryView>({
        type: 'object',
        additionalProperties: true,
        description: 'a category of the same shape (id, name, handle, parent_id, rank, children)',
      }),
    ),
  }),
);

export const StoreCollectionResponse = describes<StoreCollectionView>()(
  Type.Object({ id: Type.Integer(), title: Type.String(), handle: Type.String() }),
);

const Price = Type.Object({
  currency_code: Type.String(),
  amount: Type.Number({ description: 'major units (EUR 12.34; JPY 1200)' }),
});

const StoreVariantResponse = describes<StoreVariantView>()(
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    sku: Nullable(Type.String()),
    options: Type.Record(Type.String(), Type.String()),
    prices: Type.Array(Price),
    calculated_price: Nullable(Price),
    manage_inventory: Type.Boolean(),
    allow_backorder: Type.Boolean(),
    inventory_quantity: Nullable(
      Type.Integer({ description: 'units available in the key’s channel; null when stock is not managed' }),
    ),
    in_stock: Type.Boolean(),
  }),
);

export const StoreProductResponse = describes<StoreProductView>()(
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    handle: Type.String(),
    subtitle: Nullable(Type.String()),
    description: Nullable(Type.String()),
    images: Type.Array(Type.String()),
    options: Type.Array(Type.Object({ title: Type.String(), values: Type.Array(Type.String()) })),
    weight: Nullable(Type.Integer()),
    collection_id: Nullable(Type.Integer()),
    variants: Type.Array(StoreVariantResponse),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);
