/**
 * History for IXFR (RFC 1995): after each committed change of a transferred zone, the record set
 * the data plane now serves (loaded by the same ZoneSource) is kept under its serial; the last
 * KEPT_VERSIONS per zone are kept. The data plane diffs a kept version against the zone it
 * serves. A version is stored under the serial it was loaded with, so two changes racing can
 * only leave a serial out (that IXFR then falls back to a full transfer), never mislabel one.
 */
import type { ZoneData, ZoneRecordData, ZoneSource, ZoneVersionSource } from '../../../dns/index.ts';
import type { Clock } from '../../../kernel/clock.ts';
import type { TransfersRepository } from './transfers-repository.ts';
import { packRecords, unpackRecords } from './zone-version-codec.ts';

export const KEPT_VERSIONS = 50;

export class ZoneVersions implements ZoneVersionSource {
  constructor(
    private readonly repo: TransfersRepository,
    /** What the data plane loads (null when this process only reads history). */
    private readonly source: ZoneSource | null,
    private readonly clock: Clock,
  ) {}

  /** Keeps the zone's current record set; returns the zone as loaded (null: it is gone). */
  async record(zoneId: number): Promise<ZoneData | null> {
    if (this.source === null) throw new Error('ZoneVersions.record needs a ZoneSource');
    const zone = await this.source.load(zoneId);
    if (zone === null) return null;
    await this.repo.addVersion(zone.id, zone.serial, packRecords(zone.records), new Date(this.clock.now()));
    await this.repo.pruneVersions(zone.id, KEPT_VERSIONS);
    return zone;
  }

  async recordsAt(zoneId: number, serial: number): Promise<readonly ZoneRecordData[] | null> {
    const data = await this.repo.findVersion(zoneId, serial);
    return data === null ? null : unpackRecords(data);
  }
}
