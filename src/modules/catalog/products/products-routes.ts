import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  AvailabilityQuery,
  ListProductsQuery,
  LocationAvailabilityResponse,
  ProductParams,
  ProductResponse,
} from './products-schemas.ts';
import type { ProductsService } from './products-service.ts';

/** The catalogue's products and where a plan fits (no token: docs/catalogue-and-services.md, "Catalogue"). */
export function registerProductRoutes(app: ModuleApp, service: ProductsService): void {
  app.get(
    '/products/',
    {
      schema: {
        summary: 'The catalogue: products with prices, options and availability, in catalogue order',
        querystring: ListProductsQuery,
        response: { 200: Type.Array(ProductResponse), ...errorResponses(422, 429) },
      },
      config: { auth: 'public' },
    },
    async (request) => {
      const q = request.query;
      return service.list(
        {
          ...(q.group !== undefined ? { group: q.group } : {}),
          ...(q.hardware_tier !== undefined ? { hardwareTier: q.hardware_tier } : {}),
          ...(q.hardware_tier_id !== undefined ? { hardwareTierId: q.hardware_tier_id } : {}),
        },
        q.page,
        q.per_page,
      );
    },
  );

  app.get(
    '/products/:product_id',
    {
      schema: {
        summary: 'One product (hidden ones too; retired ones are gone)',
        description:
          "Prices and options in the catalogue's order (sort_order, id), locations in the PoPs' order.",
        params: ProductParams,
        response: { 200: ProductResponse, ...errorResponses(404, 422, 429) },
      },
      config: { auth: 'public' },
    },
    async (request) => service.get(request.params.product_id),
  );

  app.get(
    '/locations/availability',
    {
      schema: {
        summary: 'Where a VPS or container of a size fits now, per location, with the reason where not',
        description: "One item per location (inactive ones too), in the PoPs' order (sort_order, id).",
        querystring: AvailabilityQuery,
        response: { 200: Type.Array(LocationAvailabilityResponse), ...errorResponses(422, 429) },
      },
      config: { auth: 'public' },
    },
    async (request) => {
      const q = request.query;
      return service.availability({
        module: q.module,
        ...(q.hardware_tier_id !== undefined ? { hardwareTierId: q.hardware_tier_id } : {}),
        ...(q.template_id !== undefined ? { templateId: q.template_id } : {}),
        memoryMb: q.memory_mb,
        diskGb: q.disk_gb,
        diskMb: q.disk_mb,
      });
    },
  );
}
