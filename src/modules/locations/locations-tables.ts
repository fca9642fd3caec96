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

export interface RegionView {
  code: string;
  name: string;
  sort_order: number;
  countries: string[];
}

export interface LocationTables {
  locations_regions: { code: string; name: string; sort_order: number };
  locations_countries: {
    code: string;
    name: string;
    region_code: string;
    latitude: number;
    longitude: number;
  };
  locations: LocationRow;
}
