import type { JsonView } from '../../kernel/http/view-schemas.ts';

/** The locations module's tables as Kysely sees them (migrations/*_geo_locations.sql, renamed by *_identity_locations_table_prefixes.sql). */
export interface LocationRow {
  id: number;
  code: string;
  name: string;
  country_code: string;
  timezone: string | null;
  latitude: number | null;
  longitude: number | null;
  lb_region_code: string | null;
  sort_order: number;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface RegionRow {
  code: string;
  name: string;
  sort_order: number;
}

export interface CountryRow {
  code: string;
  name: string;
  region_code: string;
  latitude: number;
  longitude: number;
}

/** A PoP as GET /locations shows it: its row, timestamps as text. */
export type LocationView = JsonView<LocationRow>;

/** A load-balancing region with the codes of its countries. */
export type RegionView = JsonView<RegionRow> & { countries: string[] };

export interface LocationsTables {
  locations_regions: RegionRow;
  locations_countries: CountryRow;
  locations: LocationRow;
}
