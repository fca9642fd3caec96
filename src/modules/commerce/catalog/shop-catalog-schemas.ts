import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { CurrencyCode, Handle, MajorAmount, Name, partialOf, Text } from '../shared/commerce-http-schemas.ts';
import type { CategoryView, CollectionView, ProductDetailView, VariantView } from './shop-catalog-view.ts';

const Id = Type.Integer({ minimum: 1 });
const Ids = Type.Array(Id, { maxItems: 100, uniqueItems: true });
const Grams = Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'grams' });
const OptionValue = Type.String({ minLength: 1, maxLength: 100 });

const PriceBody = Type.Object(
  { currency_code: CurrencyCode, amount: MajorAmount },
  { additionalProperties: false },
);

export const CreateVariantBody = Type.Object(
  {
    title: Name,
    sku: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$' }))),
    options: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), OptionValue, {
        maxProperties: 20,
        description: 'option title → value: one value of each of the product’s options',
      }),
    ),
    prices: Type.Optional(Type.Array(PriceBody, { maxItems: 50, description: 'one price per currency' })),
    manage_inventory: Type.Optional(Type.Boolean()),
    allow_backorder: Type.Optional(Type.Boolean()),
    weight: Type.Optional(Nullable(Grams)),
    rank: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  },
  { additionalProperties: false },
);
export const UpdateVariantBody = partialOf(CreateVariantBody);

const ProductOption = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 100 }),
    values: Type.Array(OptionValue, { minItems: 1, maxItems: 100, uniqueItems: true }),
  },
  { additionalProperties: false },
);

const productFields = {
  title: Name,
  handle: Type.Optional(Handle),
  subtitle: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  description: Type.Optional(Nullable(Text)),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('published')])),
  images: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://\\S+$' }), {
      maxItems: 50,
      description: 'image URLs (http or https), in order',
    }),
  ),
  options: Type.Optional(Type.Array(ProductOption, { maxItems: 20 })),
  weight: Type.Optional(Nullable(Grams)),
  collection_id: Type.Optional(Nullable(Id)),
  shipping_profile_id: Type.Optional(Nullable(Id)),
  is_gift_card: Type.Optional(
    Type.Boolean({
      description: 'its variants sell gift cards of their price (docs/commerce.md, "Gift cards")',
    }),
  ),
  category_ids: Type.Optional(Ids),
  sales_channel_ids: Type.Optional(Ids),
};
export const CreateProductBody = Type.Object(
  { ...productFields, variants: Type.Optional(Type.Array(CreateVariantBody, { maxItems: 100 })) },
  { additionalProperties: false },
);
export const UpdateProductBody = partialOf(Type.Object(productFields, { additionalProperties: false }));

const variantFields = {
  id: Type.Integer(),
  title: Type.String(),
  sku: Nullable(Type.String()),
  options: Type.Record(Type.String(), Type.String()),
  manage_inventory: Type.Boolean(),
  allow_backorder: Type.Boolean(),
  weight: Nullable(Type.Integer()),
  rank: Type.Integer(),
  prices: Type.Array(
    Type.Object({ currency_code: Type.String(), amount: Type.Number({ description: 'major units' }) }),
  ),
  created_at: Type.String(),
  updated_at: Type.String(),
};
export const VariantResponse = describes<VariantView>()(Type.Object(variantFields));

export const ProductDetailResponse = describes<ProductDetailView>()(
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    handle: Type.String(),
    status: Type.String(),
    subtitle: Nullable(Type.String()),
    description: Nullable(Type.String()),
    images: Type.Array(Type.String()),
    options: Type.Array(Type.Object({ title: Type.String(), values: Type.Array(Type.String()) })),
    weight: Nullable(Type.Integer()),
    collection_id: Nullable(Type.Integer()),
    shipping_profile_id: Nullable(Type.Integer()),
    is_gift_card: Type.Boolean(),
    category_ids: Type.Array(Type.Integer()),
    sales_channel_ids: Type.Array(Type.Integer()),
    variants: Type.Array(VariantResponse),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);

export const CreateCollectionBody = Type.Object(
  { title: Name, handle: Type.Optional(Handle) },
  { additionalProperties: false },
);
export const UpdateCollectionBody = partialOf(CreateCollectionBody);
export const CollectionResponse = describes<CollectionView>()(
  Type.Object({
    id: Type.Integer(),
    title: Type.String(),
    handle: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);

export const CreateCategoryBody = Type.Object(
  {
    name: Name,
    handle: Type.Optional(Handle),
    parent_id: Type.Optional(Nullable(Id)),
    is_active: Type.Optional(Type.Boolean()),
    is_public: Type.Optional(Type.Boolean()),
    rank: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  },
  { additionalProperties: false },
);
export const UpdateCategoryBody = partialOf(CreateCategoryBody);
export const CategoryResponse = describes<CategoryView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    handle: Type.String(),
    parent_id: Nullable(Type.Integer()),
    is_active: Type.Boolean(),
    is_public: Type.Boolean(),
    rank: Type.Integer(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);
