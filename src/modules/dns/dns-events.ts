import type { ZoneChangedEvent } from '../../dns/index.ts';
import { defineEvent } from '../../kernel/events/domain-events.ts';

/**
 * Events of the DNS module. `dns.zone-changed` follows every committed change to a zone (DNS nodes
 * reload the zone, or the names it names).
 */
export const zoneChanged = defineEvent<ZoneChangedEvent>('dns.zone-changed', (m) => {
  if (typeof m !== 'object' || m === null) return null;
  const e = m as Partial<ZoneChangedEvent>;
  if (typeof e.zoneId !== 'number' || typeof e.serial !== 'number') return null;
  return e as ZoneChangedEvent;
});
