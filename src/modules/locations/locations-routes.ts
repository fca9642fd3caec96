import { Type } from 'typebox';
import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import type { LocationsRepository } from './locations-repository.ts';
import type { LocationRow } from './locations-tables.ts';

const LocationsQuery = Type.Object({ active_only: Type.Boolean({ default: true }) });

function toLocation(row: LocationRow) {
  return {
    ...row,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** GET /locations: the PoPs (no token, seed "Catalogue and locations"). */
export function registerLocationRoutes(app: ModuleApp, repo: LocationsRepository): void {
  app.get('/', { schema: { querystring: LocationsQuery }, config: { auth: 'public' } }, async (request) =>
    (await repo.listLocations(request.query.active_only)).map(toLocation),
  );
}
