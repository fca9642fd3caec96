import { Type } from 'typebox';
import { errorResponses } from '../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import type { LocationsRepository } from './locations-repository.ts';
import { LocationResponse, LocationsQuery } from './locations-schemas.ts';
import type { LocationRow, LocationView } from './locations-tables.ts';

function toLocation(row: LocationRow): LocationView {
  return {
    ...row,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** GET /locations: the PoPs (no token; docs/catalogue-and-services.md, "Locations"). */
export function registerLocationRoutes(app: ModuleApp, repo: LocationsRepository): void {
  app.get(
    '/',
    {
      schema: {
        description: 'The locations (PoPs), ordered by sort_order, then id.',
        summary: 'The PoPs, active ones only unless active_only=false',
        querystring: LocationsQuery,
        response: { 200: Type.Array(LocationResponse), ...errorResponses(422, 429) },
      },
      config: { auth: 'public' },
    },
    async (request) => (await repo.listLocations(request.query.active_only)).map(toLocation),
  );
}
