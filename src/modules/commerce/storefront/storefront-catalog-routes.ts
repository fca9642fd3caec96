import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { listOf, offsetPage } from '../shared/commerce-http-schemas.ts';
import {
  StoreCategoryResponse,
  StoreCollectionResponse,
  StoreCollectionsQuery,
  StoreHandleParams,
  StoreProductResponse,
  StoreProductsQuery,
  StoreRegionParams,
  StoreRegionResponse,
} from './storefront-catalog-schemas.ts';
import type { StorefrontCatalogService } from './storefront-catalog-service.ts';
import { StoreOrgParams, STOREFRONT } from './storefront-info-routes.ts';

const SHUT = errorResponses(401, 404);

/**
 * The Store API's catalogue (docs/commerce.md, "Store API: the catalogue"): regions, the category
 * tree, collections and the products of the calling key's sales channel. Lists paged by
 * limit/offset answer `{<name>, count, limit, offset}` as the Commerce API's lists do.
 */
export function registerStorefrontCatalogRoutes(app: ModuleApp, service: StorefrontCatalogService): void {
  registerRegionReads(app, service);
  registerCategoryReads(app, service);
  registerCollectionReads(app, service);
  app.get(
    '/:org_slug/store/products',
    {
      config: STOREFRONT,
      schema: {
        summary:
          'Published products of the key’s sales channel with variants, prices and stock; newest first by default (`order`)',
        description:
          'Only published products linked to the calling key’s sales channel (none when the channel is disabled). `region_id` adds each variant’s `calculated_price` in that region’s currency (null without a price in it).',
        params: StoreOrgParams,
        querystring: StoreProductsQuery,
        response: { 200: offsetPage('products', StoreProductResponse), ...errorResponses(401, 404, 422) },
      },
    },
    async (request) => {
      const { limit, offset, order, region_id, collection_handle, category_handle, q } = request.query;
      const page = await service.products(
        { orgId: request.principal.orgId!, salesChannelId: request.principal.salesChannelId! },
        {
          limit,
          offset,
          order,
          ...(region_id !== undefined ? { regionId: region_id } : {}),
          ...(collection_handle !== undefined ? { collectionHandle: collection_handle } : {}),
          ...(category_handle !== undefined ? { categoryHandle: category_handle } : {}),
          ...(q !== undefined ? { q } : {}),
        },
      );
      return { products: page.rows, count: page.count, limit, offset };
    },
  );
}

function registerRegionReads(app: ModuleApp, service: StorefrontCatalogService): void {
  app.get(
    '/:org_slug/store/regions',
    {
      config: STOREFRONT,
      schema: {
        summary: 'Regions sold in, to pick country and currency, in the order they were made',
        params: StoreOrgParams,
        response: { 200: listOf('regions', StoreRegionResponse), ...SHUT },
      },
    },
    async (request) => ({ regions: await service.listRegions(request.principal.orgId!) }),
  );
  app.get(
    '/:org_slug/store/regions/:region_id',
    {
      config: STOREFRONT,
      schema: {
        summary: 'One region of the shop, its countries in alphabetical order',
        params: StoreRegionParams,
        response: { 200: StoreRegionResponse, ...SHUT },
      },
    },
    async (request) => service.region(request.principal.orgId!, request.params.region_id),
  );
}

function registerCategoryReads(app: ModuleApp, service: StorefrontCatalogService): void {
  app.get(
    '/:org_slug/store/categories',
    {
      config: STOREFRONT,
      schema: {
        summary: 'Active public categories as a tree, each level ordered by rank then id',
        description: 'A category under an inactive or non-public one is not shown, nor its children.',
        params: StoreOrgParams,
        response: { 200: listOf('categories', StoreCategoryResponse), ...SHUT },
      },
    },
    async (request) => ({ categories: await service.categoryTree(request.principal.orgId!) }),
  );
  app.get(
    '/:org_slug/store/categories/:handle',
    {
      config: STOREFRONT,
      schema: {
        summary: 'One active public category by handle, with its children ordered by rank then id',
        params: StoreHandleParams,
        response: { 200: StoreCategoryResponse, ...SHUT },
      },
    },
    async (request) => service.category(request.principal.orgId!, request.params.handle),
  );
}

function registerCollectionReads(app: ModuleApp, service: StorefrontCatalogService): void {
  app.get(
    '/:org_slug/store/collections',
    {
      config: STOREFRONT,
      schema: {
        summary: 'Collections, in the order they were made (the administration’s order)',
        params: StoreOrgParams,
        querystring: StoreCollectionsQuery,
        response: {
          200: offsetPage('collections', StoreCollectionResponse),
          ...errorResponses(401, 404, 422),
        },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const page = await service.collections(request.principal.orgId!, limit, offset);
      return { collections: page.rows, count: page.count, limit, offset };
    },
  );
  app.get(
    '/:org_slug/store/collections/:handle',
    {
      config: STOREFRONT,
      schema: {
        summary: 'One collection by handle; its products: the products list with `collection_handle`',
        params: StoreHandleParams,
        response: { 200: StoreCollectionResponse, ...SHUT },
      },
    },
    async (request) => service.collection(request.principal.orgId!, request.params.handle),
  );
}
