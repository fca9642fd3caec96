import type { Kysely } from 'kysely';
import { RR_TYPE } from '../../../dns/index.ts';
import type { ZoneSteering } from '../../../dns/index.ts';
import type { ZoneData, ZoneNamesData, ZoneRecordData, ZoneSource } from '../../../dns/index.ts';
import type { DnsTables, ZoneRow } from '../dns-tables.ts';
import type { DnsContext } from '../dns-context.ts';
import { DnssecZoneMaterial } from '../dnssec/dnssec-zone-material.ts';
import { apexRecords } from './apex-records.ts';
import { loadSteering } from './steering-loader.ts';

const NO_STEERING: ZoneSteering = { pools: [], loadBalancers: [] };

/**
 * The data plane's view of the database: every zone as plain ZoneData, apex SOA/NS included, with
 * its load-balancing configuration (`steering`, empty lists when the zone has none).
 */
export class DbZoneSource implements ZoneSource {
  constructor(
    private readonly db: Kysely<DnsTables>,
    private readonly nameservers: readonly string[],
    /** Adds DNSKEY/CDS/CDNSKEY and signing keys to signed zones; null: serve zones unsigned. */
    private readonly dnssec: DnssecZoneMaterial | null = null,
  ) {}

  /** DNSSEC material of signed zones (issue 5), kept apart from the rest of the loading. */
  private async withDnssec(zones: ZoneData[]): Promise<ZoneData[]> {
    return this.dnssec === null ? zones : this.dnssec.attach(zones);
  }

  async loadAll(): Promise<ZoneData[]> {
    const zones = await this.db.selectFrom('dns_zones').selectAll().execute();
    const records = await this.db
      .selectFrom('dns_records')
      .select(['zone_id', 'name', 'type_code', 'ttl', 'rdata'])
      .execute();
    const byZone = new Map<number, ZoneRecordData[]>();
    for (const r of records) {
      let list = byZone.get(r.zone_id);
      if (!list) byZone.set(r.zone_id, (list = []));
      list.push({ name: r.name, type: r.type_code, ttl: r.ttl, rdata: r.rdata });
    }
    const steering = await loadSteering(this.db);
    return this.withDnssec(
      zones.map((z) => this.toZoneData(z, byZone.get(z.id) ?? [], steering.get(Number(z.id)))),
    );
  }

  async load(zoneId: number): Promise<ZoneData | null> {
    const zone = await this.db
      .selectFrom('dns_zones')
      .selectAll()
      .where('id', '=', zoneId)
      .executeTakeFirst();
    if (!zone) return null;
    const records = await this.db
      .selectFrom('dns_records')
      .select(['name', 'type_code', 'ttl', 'rdata'])
      .where('zone_id', '=', zoneId)
      .execute();
    const steering = await loadSteering(this.db, zone.id);
    const [data] = await this.withDnssec([
      this.toZoneData(
        zone,
        records.map((r) => ({ name: r.name, type: r.type_code, ttl: r.ttl, rdata: r.rdata })),
        steering.get(Number(zone.id)),
      ),
    ]);
    return data ?? null;
  }

  async loadNames(zoneId: number, names: readonly string[]): Promise<ZoneNamesData | null> {
    // One snapshot of both: the serial must belong to the records read.
    return this.db.transaction().execute(async (trx) => {
      const zone = await trx.selectFrom('dns_zones').selectAll().where('id', '=', zoneId).executeTakeFirst();
      if (!zone) return null;
      const soa = apexRecords(zone, this.nameservers).find((r) => r.type === RR_TYPE.SOA);
      if (soa === undefined) return null;
      const records =
        names.length === 0
          ? []
          : await trx
              .selectFrom('dns_records')
              .select(['name', 'type_code', 'ttl', 'rdata'])
              .where('zone_id', '=', zoneId)
              .where('name', 'in', [...names])
              .execute();
      return {
        serial: Number(zone.serial),
        soa: { name: soa.name, type: soa.type, ttl: soa.ttl, rdata: soa.rdata },
        records: records
          .filter((r) => r.name !== zone.domain)
          .map((r) => ({ name: r.name, type: r.type_code, ttl: r.ttl, rdata: r.rdata })),
      };
    });
  }

  private toZoneData(zone: ZoneRow, records: ZoneRecordData[], steering: ZoneSteering | undefined): ZoneData {
    const apex = apexRecords(zone, this.nameservers).map(({ name, type, ttl, rdata }) => ({
      name,
      type,
      ttl,
      rdata,
    }));
    return {
      id: zone.id,
      domain: zone.domain,
      serial: Number(zone.serial),
      records: [...apex, ...records],
      steering: steering ?? NO_STEERING,
    };
  }
}

/** The records a DNS node loads for a zone, DNSSEC material included, as the DNS node builds them. */
export function publishedZoneSource(ctx: DnsContext): DbZoneSource {
  return new DbZoneSource(ctx.db, ctx.settings.nameservers, new DnssecZoneMaterial(ctx.db, ctx.sealer));
}
