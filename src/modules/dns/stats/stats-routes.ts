import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { Static } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import type { StatsService } from './stats-service.ts';

export function registerStatsRoutes(app: ModuleApp, service: StatsService): void {
  app.get<{ Params: Static<typeof ZoneIdParams> }>(
    '/zones/:zone_id/stats',
    { schema: { params: ZoneIdParams } },
    async (request) => service.zoneStats(await request.owner(), request.params.zone_id),
  );
}
