import type { LocationRow, RegionView } from './locations-tables.ts';

/** What other modules read of the locations module: the load-balancing regions and their countries. */
export interface RegionsDirectory {
  listRegions(): Promise<RegionView[]>;
}

/** A point of presence as other modules read it. */
export type Location = Readonly<Pick<LocationRow, 'id' | 'code' | 'name' | 'country_code' | 'is_active'>>;

/** What other modules read of the PoPs (the catalogue's per-location availability). */
export interface LocationsDirectory {
  listLocations(activeOnly: boolean): Promise<Location[]>;
}
