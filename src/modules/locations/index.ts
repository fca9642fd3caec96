/** The locations module's public surface. */
export {
  createLocationsModule,
  type LocationsDirectory,
  type LocationsModule,
  type RegionsDirectory,
} from './locations-module.ts';
export type { LocationRow, RegionView } from './locations-tables.ts';
export { RegionResponse } from './locations-schemas.ts';
