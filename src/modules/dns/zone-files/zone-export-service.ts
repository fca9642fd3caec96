import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';

import { writeZoneFile } from '../../../dns/index.ts';
import { apexRecords } from '../publishing/apex-records.ts';
import type { RecordsRepository } from '../records/records-repository.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';

/** The zone as an RFC 1035 master file: `$ORIGIN`, the apex SOA and NS, then every record by name and type. */
export class ZoneExportService {
  constructor(
    private readonly zones: ZonesRepository,
    private readonly records: RecordsRepository,
    private readonly nameservers: readonly string[],
  ) {}

  async export(owner: OwnerScope, zoneId: number): Promise<string> {
    const zone = await this.zones.findAccessible(owner, zoneId);
    const rows = await this.records.listAll(zone.id);
    return writeZoneFile(zone.domain, [
      ...apexRecords(zone, this.nameservers),
      ...rows.map((r) => ({ name: r.name, type: r.type_code, ttl: r.ttl, content: r.content })),
    ]);
  }
}
