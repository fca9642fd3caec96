import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Deleted, idParams, listOf, OrgSlugParams } from '../shared/commerce-http-schemas.ts';
import { RegionResponse } from './shop-region-view.ts';
import { CreateRegionBody, UpdateRegionBody } from './shop-regions-schemas.ts';
import type { ShopRegionsService } from './shop-regions-service.ts';

const READ = { auth: { scope: 'commerce.catalog:read' } } as const;
const WRITE = { auth: { scope: 'commerce.store:write' } } as const;

/** Regions (docs/commerce.md, "Regions"): read with the catalogue, changed with the store. */
export function registerShopRegionRoutes(app: ModuleApp, service: ShopRegionsService): void {
  const base = '/:org_slug/commerce/regions';
  const params = idParams('region_id');
  app.get(
    base,
    {
      schema: {
        description: 'The regions, oldest first.',
        params: OrgSlugParams,
        response: { 200: listOf('regions', RegionResponse) },
      },
      config: READ,
    },
    async (request) => ({ regions: await service.list(request.principal.orgId!) }),
  );
  app.post(
    base,
    {
      schema: {
        description:
          'Creates a region. An unknown currency answers 422; a country another region holds answers 409.',
        params: OrgSlugParams,
        body: CreateRegionBody,
        response: { 201: RegionResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(request.principal.orgId!, request.body)),
  );
  app.get(
    `${base}/:region_id`,
    {
      schema: { description: 'A region; its countries sorted.', params, response: { 200: RegionResponse } },
      config: READ,
    },
    async (request) => service.get(request.principal.orgId!, request.params.region_id),
  );
  app.patch(
    `${base}/:region_id`,
    {
      schema: {
        description: 'Changes a region; `countries` replaces the list.',
        params,
        body: UpdateRegionBody,
        response: { 200: RegionResponse, ...errorResponses(409) },
      },
      config: WRITE,
    },
    async (request) => service.update(request.principal.orgId!, request.params.region_id, request.body),
  );
  app.delete(
    `${base}/:region_id`,
    {
      schema: {
        description: 'Deletes a region, its countries and its shipping options.',
        params,
        response: { 200: Deleted },
      },
      config: WRITE,
    },
    async (request) => service.delete(request.principal.orgId!, request.params.region_id),
  );
}
