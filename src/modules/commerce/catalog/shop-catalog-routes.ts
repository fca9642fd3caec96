import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Deleted, idParams, listOf, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import {
  CategoryResponse,
  CollectionResponse,
  CreateCategoryBody,
  CreateCollectionBody,
  CreateProductBody,
  CreateVariantBody,
  ProductDetailResponse,
  UpdateCategoryBody,
  UpdateCollectionBody,
  UpdateProductBody,
  UpdateVariantBody,
} from './shop-catalog-schemas.ts';
import type { ShopCatalogService } from './shop-catalog-service.ts';

const READ = { auth: { scope: 'commerce.catalog:read' } } as const;
const WRITE = { auth: { scope: 'commerce.catalog:write' } } as const;

/**
 * The catalogue (docs/commerce.md, "Catalogue"): products with their variants and prices,
 * collections, categories. The products list (`GET .../products`) is one of the Commerce lists.
 */
export function registerShopCatalogRoutes(app: ModuleApp, service: ShopCatalogService): void {
  const base = '/:org_slug/commerce';
  const product = idParams('product_id');
  const variant = idParams('product_id', 'variant_id');
  app.post(
    `${base}/products`,
    {
      schema: {
        description:
          'Creates a product with its options and variants. Prices are in major units of their currency (EUR 12.34, JPY 1200); a handle (derived from the title when not given) or SKU already in the shop answers 409.',
        params: OrgSlugParams,
        body: CreateProductBody,
        response: { 201: ProductDetailResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.createProduct(request.principal.orgId!, request.body)),
  );
  app.get(
    `${base}/products/:product_id`,
    {
      schema: {
        description:
          'A product with its variants (ordered by rank, then id) and their prices (ordered by currency).',
        params: product,
        response: { 200: ProductDetailResponse },
      },
      config: READ,
    },
    async (request) => service.product(request.principal.orgId!, request.params.product_id),
  );
  app.patch(
    `${base}/products/:product_id`,
    {
      schema: {
        description:
          'Changes a product; `category_ids`, `sales_channel_ids`, `images` and `options` replace their lists (options must still fit every variant).',
        params: product,
        body: UpdateProductBody,
        response: { 200: ProductDetailResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) =>
      service.updateProduct(request.principal.orgId!, request.params.product_id, request.body),
  );
  app.delete(
    `${base}/products/:product_id`,
    {
      schema: {
        description: 'Deletes a product and its variants.',
        params: product,
        response: { 200: Deleted },
      },
      config: WRITE,
    },
    async (request) => service.deleteProduct(request.principal.orgId!, request.params.product_id),
  );
  app.post(
    `${base}/products/:product_id/variants`,
    {
      schema: {
        description: 'Adds a variant; answers the product.',
        params: product,
        body: CreateVariantBody,
        response: { 201: ProductDetailResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.createVariant(request.principal.orgId!, request.params.product_id, request.body)),
  );
  app.patch(
    `${base}/products/:product_id/variants/:variant_id`,
    {
      schema: {
        description: 'Changes a variant (`prices` replaces its prices); answers the product.',
        params: variant,
        body: UpdateVariantBody,
        response: { 200: ProductDetailResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) =>
      service.updateVariant(
        request.principal.orgId!,
        request.params.product_id,
        request.params.variant_id,
        request.body,
      ),
  );
  app.delete(
    `${base}/products/:product_id/variants/:variant_id`,
    {
      schema: {
        description: 'Deletes a variant; answers the product.',
        params: variant,
        response: { 200: ProductDetailResponse },
      },
      config: WRITE,
    },
    async (request) =>
      service.deleteVariant(request.principal.orgId!, request.params.product_id, request.params.variant_id),
  );

  const collection = idParams('collection_id');
  app.get(
    `${base}/collections`,
    {
      schema: {
        description: 'The collections, oldest first.',
        params: OrgSlugParams,
        response: { 200: listOf('collections', CollectionResponse) },
      },
      config: READ,
    },
    async (request) => ({ collections: await service.collections(request.principal.orgId!) }),
  );
  app.post(
    `${base}/collections`,
    {
      schema: {
        params: OrgSlugParams,
        body: CreateCollectionBody,
        response: { 201: CollectionResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.createCollection(request.principal.orgId!, request.body)),
  );
  app.patch(
    `${base}/collections/:collection_id`,
    {
      schema: {
        params: collection,
        body: UpdateCollectionBody,
        response: { 200: CollectionResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) =>
      service.updateCollection(request.principal.orgId!, request.params.collection_id, request.body),
  );
  app.delete(
    `${base}/collections/:collection_id`,
    {
      schema: {
        description: 'Deletes a collection; its products stay, in no collection.',
        params: collection,
        response: { 200: Deleted },
      },
      config: WRITE,
    },
    async (request) => service.deleteCollection(request.principal.orgId!, request.params.collection_id),
  );

  const category = idParams('category_id');
  app.get(
    `${base}/categories`,
    {
      schema: {
        description:
          'The category tree as a flat list ordered by rank then id: each category names its `parent_id` (null at the top).',
        params: OrgSlugParams,
        response: { 200: listOf('product_categories', CategoryResponse) },
      },
      config: READ,
    },
    async (request) => ({ product_categories: await service.categories(request.principal.orgId!) }),
  );
  app.post(
    `${base}/categories`,
    {
      schema: {
        params: OrgSlugParams,
        body: CreateCategoryBody,
        response: { 201: CategoryResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.createCategory(request.principal.orgId!, request.body)),
  );
  app.patch(
    `${base}/categories/:category_id`,
    {
      schema: {
        description: 'Changes a category; a parent below the category itself answers 422.',
        params: category,
        body: UpdateCategoryBody,
        response: { 200: CategoryResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) =>
      service.updateCategory(request.principal.orgId!, request.params.category_id, request.body),
  );
  app.delete(
    `${base}/categories/:category_id`,
    {
      schema: {
        description: 'Deletes a category without children (else 409).',
        params: category,
        response: { 200: Deleted, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) => service.deleteCategory(request.principal.orgId!, request.params.category_id),
  );
}
