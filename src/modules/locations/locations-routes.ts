import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { LocationRow, LocationsRepository } from './locations-repository.ts';

const LocationsQuery = Type.Object({ active_only: Type.Boolean({ default: true }) });

function toLocation(row: LocationRow) {
  return {
    ...row,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function registerLocationRoutes(app: FastifyInstance, repo: LocationsRepository): void {
  app.get<{ Querystring: Static<typeof LocationsQuery> }>(
    '/api/v1/locations',
    { schema: { querystring: LocationsQuery }, config: { public: true } },
    async (request) => (await repo.listLocations(request.query.active_only)).map(toLocation),
  );

  app.get('/api/v1/dns/lb-regions', async () => repo.listRegions());
}
