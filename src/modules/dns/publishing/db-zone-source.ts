import { RR_TYPE } from '../../../dns/index.ts';
import type {
  ZoneData,
  ZoneNamesData,
  ZoneRecordData,
  ZoneSource,
  ZoneSteering,
} from '../../../dns/index.ts';
import type { ZoneSteeringSource } from '../dns-interfaces.ts';
import type { ZoneRow } from '../dns-tables.ts';
import type { DnsContext } from '../dns-context.ts';
import { DnssecZoneMaterial } from '../dnssec/dnssec-zone-material.ts';
import { apexRecords } from './apex-records.ts';
import { PublishingRepository, type PublishedRecordRow } from './publishing-repository.ts';

const NO_STEERING: ZoneSteering = { pools: [], loadBalancers: [] };

const recordData = (r: PublishedRecordRow): ZoneRecordData => ({
  name: r.name,
  type: r.type_code,
  ttl: r.ttl,
  rdata: r.rdata,
});

/**
 * The data plane's view of the database: every zone as plain ZoneData, apex SOA/NS included, with
 * its load-balancing configuration (`steering`, empty lists when the zone has none or no steering
 * source is given: the zone's versions for IXFR need only its records).
 */
export class DbZoneSource implements ZoneSource {
  constructor(
    private readonly repo: PublishingRepository,
    private readonly nameservers: readonly string[],
    private readonly steering: ZoneSteeringSource | null,
    /** Adds DNSKEY/CDS/CDNSKEY and signing keys to signed zones; null: serve zones unsigned. */
    private readonly dnssec: DnssecZoneMaterial | null = null,
  ) {}

  /** DNSSEC material of signed zones, kept apart from the rest of the loading. */
  private async withDnssec(zones: ZoneData[]): Promise<ZoneData[]> {
    return this.dnssec === null ? zones : this.dnssec.attach(zones);
  }

  private async steeringOf(zoneId?: number): Promise<Map<number, ZoneSteering>> {
    return this.steering === null ? new Map() : this.steering.load(zoneId);
  }

  async loadAll(): Promise<ZoneData[]> {
    const zones = await this.repo.allZones();
    const byZone = new Map<number, ZoneRecordData[]>();
    for (const r of await this.repo.allRecords()) {
      let list = byZone.get(r.zone_id);
      if (!list) byZone.set(r.zone_id, (list = []));
      list.push(recordData(r));
    }
    const steering = await this.steeringOf();
    return this.withDnssec(
      zones.map((z) => this.toZoneData(z, byZone.get(z.id) ?? [], steering.get(Number(z.id)))),
    );
  }

  async load(zoneId: number): Promise<ZoneData | null> {
    const zone = await this.repo.zone(zoneId);
    if (!zone) return null;
    const records = (await this.repo.recordsOf(zoneId)).map(recordData);
    const steering = await this.steeringOf(zone.id);
    const [data] = await this.withDnssec([this.toZoneData(zone, records, steering.get(Number(zone.id)))]);
    return data ?? null;
  }

  async loadNames(zoneId: number, names: readonly string[]): Promise<ZoneNamesData | null> {
    const rows = await this.repo.zoneNames(zoneId, names);
    if (rows === null) return null;
    const { zone, records } = rows;
    const soa = apexRecords(zone, this.nameservers).find((r) => r.type === RR_TYPE.SOA);
    if (soa === undefined) return null;
    return {
      serial: Number(zone.serial),
      soa: { name: soa.name, type: soa.type, ttl: soa.ttl, rdata: soa.rdata },
      records: records.filter((r) => r.name !== zone.domain).map(recordData),
    };
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

/** The zones as DNS nodes load them, DNSSEC material included, with `steering` attached (or none). */
export function publishedZoneSource(ctx: DnsContext, steering: ZoneSteeringSource | null): DbZoneSource {
  return new DbZoneSource(
    new PublishingRepository(ctx.db),
    ctx.settings.nameservers,
    steering,
    new DnssecZoneMaterial(ctx.db, ctx.sealer),
  );
}
