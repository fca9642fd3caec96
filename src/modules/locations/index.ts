/** The locations module's public surface. */
export { createLocationsModule, type LocationsModule } from './locations-module.ts';
export type { Location, LocationsDirectory, RegionsDirectory } from './locations-interfaces.ts';
export { RegionResponse } from './locations-schemas.ts';
