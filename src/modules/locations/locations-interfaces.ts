import type { LocationRow, RegionView } from './locations-tables.ts';

/** What other modules read of the locations module: the load-balancing regions and their countries. */
export interface RegionsDirectory {
  listRegions(): Promise<RegionView[]>;
}

/** What other modules read of the PoPs (the catalogue's per-location availability). */
export interface LocationsDirectory {
  listLocations(activeOnly: boolean): Promise<LocationRow[]>;
}
