/** The locations module's public surface. */
export { createLocationsModule, type LocationsModule } from './locations-module.ts';
export type { LocationsDirectory, RegionsDirectory } from './locations-interfaces.ts';
export type { LocationRow, RegionView } from './locations-tables.ts';
export { RegionResponse } from './locations-schemas.ts';
