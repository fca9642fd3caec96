import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { ZoneIdParams } from '../zones/zones-schemas.ts';
import type { StatsService } from './stats-service.ts';

export function registerStatsRoutes(app: FastifyInstance, service: StatsService): void {
  app.get<{ Params: Static<typeof ZoneIdParams> }>(
    '/api/v1/dns/zones/:zone_id/stats',
    { schema: { params: ZoneIdParams } },
    async (request) => service.zoneStats(request.userId, request.params.zone_id),
  );
}
