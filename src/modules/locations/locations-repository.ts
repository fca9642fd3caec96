import { sql, type Kysely, type Transaction } from 'kysely';
import type { Country, Location, Region } from '../../geo/geo-data.ts';
import type { LocationRow, LocationsTables, RegionView } from './locations-tables.ts';

type Db = Kysely<LocationsTables> | Transaction<LocationsTables>;

export class LocationsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<LocationsTables>): LocationsRepository {
    return new LocationsRepository(trx);
  }

  /**
   * Makes the tables say what the reviewed files in geo/ say. Idempotent and run by every
   * process at start, in one transaction (the repository bound to it by withTx); rows only change
   * when the files do (updated_at moves then).
   */
  async sync(
    regions: readonly Region[],
    countries: readonly Country[],
    locations: readonly Location[],
  ): Promise<void> {
    await this.syncRegions(regions);
    await this.syncCountries(countries);
    await this.syncLocations(locations);
  }

  private async syncRegions(regions: readonly Region[]): Promise<void> {
    for (const r of regions) {
      await this.db
        .insertInto('locations_regions')
        .values(r)
        .onConflict((oc) => oc.column('code').doUpdateSet({ name: r.name, sort_order: r.sort_order }))
        .execute();
    }
  }

  private async syncCountries(countries: readonly Country[]): Promise<void> {
    const countryRows = countries.map((c) => ({
      code: c.code,
      name: c.name,
      region_code: c.region,
      latitude: c.latitude,
      longitude: c.longitude,
    }));
    for (let i = 0; i < countryRows.length; i += 100) {
      await this.db
        .insertInto('locations_countries')
        .values(countryRows.slice(i, i + 100))
        .onConflict((oc) =>
          oc.column('code').doUpdateSet((eb) => ({
            name: eb.ref('excluded.name'),
            region_code: eb.ref('excluded.region_code'),
            latitude: eb.ref('excluded.latitude'),
            longitude: eb.ref('excluded.longitude'),
          })),
        )
        .execute();
    }
  }

  private async syncLocations(locations: readonly Location[]): Promise<void> {
    for (const l of locations) {
      const values = {
        code: l.code,
        name: l.name,
        country_code: l.country_code,
        timezone: l.timezone,
        latitude: l.latitude,
        longitude: l.longitude,
        lb_region_code: l.lb_region_code,
        sort_order: l.sort_order,
        is_active: l.is_active,
      };
      await this.db
        .insertInto('locations')
        .values(values as never)
        .onConflict((oc) =>
          oc
            .column('code')
            .doUpdateSet({ ...values, updated_at: sql<Date>`now()` } as never)
            .where(
              sql<boolean>`(locations.name, locations.country_code, locations.timezone, locations.latitude, locations.longitude, locations.lb_region_code, locations.sort_order, locations.is_active) IS DISTINCT FROM (excluded.name, excluded.country_code, excluded.timezone, excluded.latitude, excluded.longitude, excluded.lb_region_code, excluded.sort_order, excluded.is_active)`,
            ),
        )
        .execute();
    }
  }

  async listLocations(activeOnly: boolean): Promise<LocationRow[]> {
    let query = this.db.selectFrom('locations').selectAll().orderBy('sort_order').orderBy('id');
    if (activeOnly) query = query.where('is_active', '=', true);
    return query.execute();
  }

  async listRegions(): Promise<RegionView[]> {
    const regions = await this.db.selectFrom('locations_regions').selectAll().orderBy('sort_order').execute();
    const countries = await this.db
      .selectFrom('locations_countries')
      .select(['code', 'region_code'])
      .orderBy('code')
      .execute();
    return regions.map((r) => ({
      ...r,
      countries: countries.filter((c) => c.region_code === r.code).map((c) => c.code),
    }));
  }
}
