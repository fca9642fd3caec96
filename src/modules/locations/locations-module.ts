import { COUNTRIES, LOCATIONS, REGIONS } from '../../geo/geo-data.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { locationsContext } from './locations-context.ts';
import { LocationsRepository } from './locations-repository.ts';
import type { LocationsDirectory, RegionsDirectory } from './locations-interfaces.ts';
import { registerLocationRoutes } from './locations-routes.ts';

export interface LocationsModule extends PlatformModule {
  readonly regions: RegionsDirectory;
  readonly locations: LocationsDirectory;
}

/**
 * PoPs, regions and countries (base /api/v1/locations), kept equal to the reviewed files in geo/
 * at every start.
 */
export function createLocationsModule(runtime: Runtime): LocationsModule {
  const ctx = locationsContext(runtime);
  const repo = new LocationsRepository(ctx.db);
  return {
    name: 'locations',
    prefix: '/locations',
    regions: repo,
    locations: repo,
    routes: (app) => registerLocationRoutes(app, repo),
    start: () =>
      ctx.transaction(({ trx }) => repo.withTx(trx).sync(REGIONS, [...COUNTRIES.values()], LOCATIONS)),
  };
}
