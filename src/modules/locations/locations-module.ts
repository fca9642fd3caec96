import { COUNTRIES, LOCATIONS, REGIONS } from '../../geo/geo-data.ts';
import { moduleContext } from '../../kernel/module/module-context.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { LocationsRepository } from './locations-repository.ts';
import type { LocationRow, LocationTables, RegionView } from './locations-tables.ts';
import { registerLocationRoutes } from './locations-routes.ts';

/** What other modules read of the locations module: the load-balancing regions and their countries. */
export interface RegionsDirectory {
  listRegions(): Promise<RegionView[]>;
}

/** What other modules read of the PoPs (the catalogue's per-location availability). */
export interface LocationsDirectory {
  listLocations(activeOnly: boolean): Promise<LocationRow[]>;
}

export interface LocationsModule extends PlatformModule {
  readonly regions: RegionsDirectory;
  readonly locations: LocationsDirectory;
}

/**
 * PoPs, regions and countries (base /api/v1/locations), kept equal to the reviewed files in geo/
 * at every start.
 */
export function createLocationsModule(runtime: Runtime): LocationsModule {
  const ctx = moduleContext<LocationTables>(runtime, 'locations');
  const repo = new LocationsRepository(ctx.db);
  return {
    name: 'locations',
    prefix: '/locations',
    regions: repo,
    locations: repo,
    routes: (app) => registerLocationRoutes(app, repo),
    start: () => repo.sync(REGIONS, [...COUNTRIES.values()], LOCATIONS),
  };
}
