import type { Kysely } from 'kysely';
import type { DnsTables, RecordRow, ZoneRow } from '../dns-tables.ts';

/** A record as the data plane loads it. */
export type PublishedRecordRow = Pick<RecordRow, 'zone_id' | 'name' | 'type_code' | 'ttl' | 'rdata'>;

/** A zone's serial and SOA source with the records at some of its names, read in one snapshot. */
export interface ZoneNamesRows {
  readonly zone: ZoneRow;
  readonly records: readonly PublishedRecordRow[];
}

/** The zones and records DNS nodes load: whole, one zone, or some names of one zone. */
export class PublishingRepository {
  constructor(private readonly db: Kysely<DnsTables>) {}

  async allZones(): Promise<ZoneRow[]> {
    return this.db.selectFrom('dns_zones').selectAll().execute();
  }

  async allRecords(): Promise<PublishedRecordRow[]> {
    return this.db
      .selectFrom('dns_records')
      .select(['zone_id', 'name', 'type_code', 'ttl', 'rdata'])
      .execute();
  }

  async zone(zoneId: number): Promise<ZoneRow | null> {
    return (
      (await this.db.selectFrom('dns_zones').selectAll().where('id', '=', zoneId).executeTakeFirst()) ?? null
    );
  }

  async recordsOf(zoneId: number): Promise<PublishedRecordRow[]> {
    return this.db
      .selectFrom('dns_records')
      .select(['zone_id', 'name', 'type_code', 'ttl', 'rdata'])
      .where('zone_id', '=', zoneId)
      .execute();
  }

  /** The zone and its records at `names`, in one transaction: the serial belongs to the records read. */
  async zoneNames(zoneId: number, names: readonly string[]): Promise<ZoneNamesRows | null> {
    return this.db.transaction().execute(async (trx) => {
      const zone = await trx.selectFrom('dns_zones').selectAll().where('id', '=', zoneId).executeTakeFirst();
      if (!zone) return null;
      const records =
        names.length === 0
          ? []
          : await trx
              .selectFrom('dns_records')
              .select(['zone_id', 'name', 'type_code', 'ttl', 'rdata'])
              .where('zone_id', '=', zoneId)
              .where('name', 'in', [...names])
              .execute();
      return { zone, records };
    });
  }
}
