import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import type { ZoneAccess } from '../dns-interfaces.ts';
import type { RecordsRepository } from '../records/records-repository.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';

/** Zones for a module that keeps data inside them (load balancing): the DNS module's checks and zone changes. */
export function createZoneAccess(
  zones: ZonesRepository,
  records: RecordsRepository,
  changes: ZoneChanges,
): ZoneAccess {
  return {
    async find(actor, zoneId, write = false) {
      const zone = await zones.findAccessible(actor, zoneId, write);
      return { id: zone.id, domain: zone.domain };
    },
    change: (actor, zoneId, work) =>
      changes.apply(actor, zoneId, (trx, zone) =>
        work({
          trx: joinTransaction(trx),
          zone: { id: zone.id, domain: zone.domain },
          hasRecords: (name, types) => records.withTx(trx).existsAt(zone.id, name, types),
        }),
      ),
    orgOf: (zoneId) => zones.orgOf(zoneId),
  };
}
