/**
 * Adds the DNSSEC part of a zone as the data plane receives it: the apex DNSKEY/CDS/CDNSKEY records
 * and ZoneData.dnssec (the active KSK and ZSK, decrypted, the NSEC TTL and the denial), plus the
 * NSEC3PARAM at the apex when the zone's denial is its NSEC3 chain (RFC 5155 §4, RFC 9276 §3.1).
 * Zones without keys pass through unchanged.
 */
import type { Kysely } from 'kysely';
import { NSEC3PARAM_RDATA, RR_TYPE } from '../../../dns/index.ts';
import type { DnssecAlgorithm, ZoneData, ZoneDnssec } from '../../../dns/index.ts';
import { apexDnssecRecords } from './dnssec-records.ts';
import { DnssecRepository, type StoredKey } from './dnssec-repository.ts';
import type { DnsTables } from '../dns-tables.ts';
import type { Sealer } from '../../../kernel/crypto/sealing.ts';
import { keyContext } from './dnssec-key-sealing.ts';

/** SOA RDATA ends with MINIMUM (RFC 1035 §3.3.13). */
function soaMinimum(rdata: Uint8Array): number {
  return Buffer.from(rdata.buffer, rdata.byteOffset, rdata.length).readUInt32BE(rdata.length - 4);
}

export class DnssecZoneMaterial {
  /** Zones whose private keys could not be decrypted at the last load (served unsigned). */
  readonly failedZones = new Set<number>();

  private readonly repo: DnssecRepository;

  constructor(
    db: Kysely<DnsTables>,
    private readonly encryption: Sealer,
  ) {
    this.repo = new DnssecRepository(db);
  }

  async attach(zones: ZoneData[]): Promise<ZoneData[]> {
    if (zones.length === 0) return zones;
    const ids = zones.length === 1 ? [Number(zones[0]!.id)] : null;
    const states = await this.repo.listZonesByIds(ids);
    if (states.length === 0) return zones;
    const keys = await this.repo.listKeys(states.map((s) => s.zone_id));
    const byZone = new Map<number, StoredKey[]>();
    for (const k of keys) byZone.set(k.zone_id, [...(byZone.get(k.zone_id) ?? []), k]);
    const stateOf = new Map(states.map((s) => [s.zone_id, s]));
    return zones.map((zone) => {
      const state = stateOf.get(Number(zone.id));
      const zoneKeys = byZone.get(Number(zone.id)) ?? [];
      if (!state) return zone;
      const soa = zone.records.find((r) => r.type === RR_TYPE.SOA && r.name === zone.domain);
      const ksk = zoneKeys.find((k) => k.role === 'ksk' && k.state === 'active');
      const zsk = zoneKeys.find((k) => k.role === 'zsk' && k.state === 'active');
      if (!soa || !ksk || !zsk) return zone;
      const signing = (k: StoredKey): ZoneDnssec['ksk'] => ({
        algorithm: k.algorithm as DnssecAlgorithm,
        keyTag: k.key_tag,
        privateKeyPkcs8: this.encryption.open(k.private_key, keyContext(zone.id, k.role)),
      });
      let dnssec: ZoneDnssec;
      try {
        dnssec = {
          algorithm: state.algorithm as DnssecAlgorithm,
          ksk: signing(ksk),
          zsk: signing(zsk),
          nsecTtl: Math.min(soa.ttl, soaMinimum(soa.rdata)),
          denial: state.denial,
        };
      } catch {
        // Keys sealed under another DNSSEC_KEY_ENCRYPTION_KEY: this zone cannot be signed here, but
        // the other zones of the load must still be served.
        this.failedZones.add(Number(zone.id));
        return zone;
      }
      this.failedZones.delete(Number(zone.id));
      const apex = apexDnssecRecords(zone.domain, soa.ttl, zoneKeys, state.disabling_since !== null);
      if (state.denial === 'nsec3') {
        apex.push({
          name: zone.domain,
          type: RR_TYPE.NSEC3PARAM,
          ttl: dnssec.nsecTtl,
          rdata: NSEC3PARAM_RDATA,
        });
      }
      return { ...zone, records: [...zone.records, ...apex], dnssec };
    });
  }
}
