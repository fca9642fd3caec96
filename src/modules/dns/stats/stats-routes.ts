import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import { ZoneStatsResponse } from './stats-schemas.ts';
import type { StatsService } from './stats-service.ts';

export function registerStatsRoutes(app: ModuleApp, service: StatsService): void {
  app.get(
    '/zones/:zone_id/stats',
    {
      schema: {
        summary: 'Queries answered for the zone over the last 24 hours, by type, RCODE and hour',
        description: 'hourly: one entry per hour, oldest first, the current hour last.',
        params: ZoneIdParams,
        response: { 200: ZoneStatsResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.zoneStats(await request.owner(), request.params.zone_id),
  );
}
