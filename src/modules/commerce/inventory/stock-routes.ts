import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Deleted, idParams, listOf, offsetPage, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import {
  CreateStockLocationBody,
  InventoryBatchBody,
  InventoryQuery,
  UpdateStockLocationBody,
} from './stock-schemas.ts';
import type { StockService } from './stock-service.ts';
import { InventoryLevelResponse, StockLocationResponse } from './stock-view.ts';

const READ = { auth: { scope: 'commerce.catalog:read' } } as const;
const LOCATIONS_WRITE = { auth: { scope: 'commerce.catalog:write' } } as const;
const LEVELS_WRITE = { auth: { scope: 'commerce.inventory:write' } } as const;

/** Stock locations and inventory levels (docs/commerce.md, "Inventory"). */
export function registerStockRoutes(app: ModuleApp, service: StockService): void {
  const base = '/:org_slug/commerce';
  const location = idParams('stock_location_id');
  app.get(
    `${base}/stock-locations`,
    {
      schema: {
        description: 'The stock locations, oldest first, with the sales channels each serves.',
        params: OrgSlugParams,
        response: { 200: listOf('stock_locations', StockLocationResponse) },
      },
      config: READ,
    },
    async (request) => ({ stock_locations: await service.locations(request.principal.orgId!) }),
  );
  app.post(
    `${base}/stock-locations`,
    {
      schema: {
        params: OrgSlugParams,
        body: CreateStockLocationBody,
        response: { 201: StockLocationResponse },
      },
      config: LOCATIONS_WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.createLocation(request.principal.orgId!, request.body)),
  );
  app.patch(
    `${base}/stock-locations/:stock_location_id`,
    {
      schema: {
        description: 'Changes a stock location; `sales_channel_ids` replaces the list.',
        params: location,
        body: UpdateStockLocationBody,
        response: { 200: StockLocationResponse },
      },
      config: LOCATIONS_WRITE,
    },
    async (request) =>
      service.updateLocation(request.principal.orgId!, request.params.stock_location_id, request.body),
  );
  app.delete(
    `${base}/stock-locations/:stock_location_id`,
    {
      schema: {
        description: 'Deletes a stock location and its levels, unless stock there is reserved (409).',
        params: location,
        response: { 200: Deleted, ...errorResponses(409) },
      },
      config: LOCATIONS_WRITE,
    },
    async (request) => service.deleteLocation(request.principal.orgId!, request.params.stock_location_id),
  );

  app.get(
    `${base}/inventory`,
    {
      schema: {
        description: 'Inventory levels ordered by SKU then location; `sku` and `stock_location_id` filter.',
        params: OrgSlugParams,
        querystring: InventoryQuery,
        response: { 200: offsetPage('levels', InventoryLevelResponse) },
      },
      config: READ,
    },
    async (request) => {
      const { limit, offset, sku, stock_location_id } = request.query;
      const page = await service.levels(
        request.principal.orgId!,
        {
          ...(sku !== undefined ? { sku } : {}),
          ...(stock_location_id !== undefined ? { stockLocationId: stock_location_id } : {}),
        },
        limit,
        offset,
      );
      return { ...page, limit, offset };
    },
  );
  app.post(
    `${base}/inventory/batch`,
    {
      schema: {
        description:
          'Sets stocked quantities by SKU and stock location, all or none (one entry is one item). A SKU no variant has answers 422 naming the entry; below the reserved quantity, 409.',
        params: OrgSlugParams,
        body: InventoryBatchBody,
        response: {
          200: Type.Object({ levels: Type.Array(InventoryLevelResponse) }),
          ...errorResponses(409),
        },
      },
      config: LEVELS_WRITE,
    },
    async (request) => service.batch(request.principal.orgId!, request.body.levels),
  );
}
