import type { Kysely } from 'kysely';
import type { Module } from '../../kernel/app-context.ts';
import { COUNTRIES, LOCATIONS, REGIONS } from '../../geo/geo-data.ts';
import { LocationsRepository, type LocationTables } from './locations-repository.ts';
import { registerLocationRoutes } from './locations-routes.ts';

export const locationsModule: Module = {
  name: 'locations',
  register(app, ctx) {
    registerLocationRoutes(app, new LocationsRepository(ctx.db as Kysely<LocationTables>));
  },
  async start(ctx) {
    await new LocationsRepository(ctx.db as Kysely<LocationTables>).sync(
      REGIONS,
      [...COUNTRIES.values()],
      LOCATIONS,
    );
  },
};
