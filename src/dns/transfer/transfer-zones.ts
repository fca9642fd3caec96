/**
 * The zones that may be transferred out, as last received (ZoneData with `transfer` set), by apex.
 * The ZoneStore keeps compiled snapshots, not the plain record list AXFR streams, so this side
 * map is fed beside it by ZoneSync (same replaceAll/upsert/applyNames/remove calls). Zones without a
 * transfer policy are not kept, so the memory cost is only for transferred zones.
 */
import type { ZoneData, ZoneNamesData } from '../zone/zone-data.ts';
import { applyNamesChange } from '../zone/zone-names-change.ts';
import { readRecords } from '../zone/packed-records.ts';

/** The zone with its records as a list: AXFR streams them (a packed zone holds its apex's only). */
function withRecords(zone: ZoneData): ZoneData {
  const packed = zone.packed;
  if (packed === undefined) return zone;
  const bytes = Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.length);
  const { packed: _packed, ...rest } = zone;
  return { ...rest, records: readRecords(bytes, 0, packed.count).records };
}

export class TransferZones {
  private byApex = new Map<string, ZoneData>();
  private apexById = new Map<number, string>();

  replaceAll(zones: readonly ZoneData[]): void {
    const byApex = new Map<string, ZoneData>();
    const apexById = new Map<number, string>();
    for (const z of zones) {
      if (z.transfer === undefined) continue;
      byApex.set(z.domain, withRecords(z));
      apexById.set(z.id, z.domain);
    }
    this.byApex = byApex;
    this.apexById = apexById;
  }

  upsert(zone: ZoneData): void {
    this.remove(zone.id);
    if (zone.transfer === undefined) return;
    this.byApex.set(zone.domain, withRecords(zone));
    this.apexById.set(zone.id, zone.domain);
  }

  /** A change to a few names of a kept zone (see applyNamesChange); other zones are not kept. */
  applyNames(zoneId: number, part: ZoneNamesData, names: readonly string[]): void {
    const apex = this.apexById.get(zoneId);
    const old = apex === undefined ? undefined : this.byApex.get(apex);
    if (old === undefined) return;
    const zone = applyNamesChange(old, part, names);
    if (zone !== null) this.byApex.set(old.domain, zone);
  }

  remove(zoneId: number): void {
    const apex = this.apexById.get(zoneId);
    if (apex === undefined) return;
    this.apexById.delete(zoneId);
    if (this.byApex.get(apex)?.id === zoneId) this.byApex.delete(apex);
  }

  /** By apex in stored form (lower case, no trailing dot). */
  get(apex: string): ZoneData | undefined {
    return this.byApex.get(apex);
  }
}
