import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { RegionResponse, type RegionsDirectory } from '../../locations/index.ts';

/** The regions a load balancer's `region_pools` are keyed by, with their countries. */
export function registerRegionRoutes(app: ModuleApp, regions: RegionsDirectory): void {
  app.get(
    '/lb-regions',
    {
      schema: {
        description: 'The 11 regions, ordered by sort_order; each region’s countries sorted by code.',
        summary: 'The load-balancing regions and their countries (keys of region_pools)',
        response: { 200: Type.Array(RegionResponse), ...errorResponses(401, 429) },
      },
    },
    async () => regions.listRegions(),
  );
}
