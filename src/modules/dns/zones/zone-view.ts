import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { ZoneRow } from '../dns-tables.ts';
import { effectiveSoaEmail } from '../shared/zone-domain.ts';
import type { ZoneWithCount } from './zones-repository.ts';

/**
 * A zone as the routes answer it (docs/dns-and-load-balancing.md, "Zones"): the zone row without
 * its SOA timers and default TTL, with the SOA mailbox as served (hostmaster@<domain> when unset)
 * and the number of records.
 */
export type ZoneView = JsonView<
  Omit<
    ZoneRow,
    | 'user_id'
    | 'managed_by'
    | 'soa_email'
    | 'default_ttl'
    | 'soa_refresh'
    | 'soa_retry'
    | 'soa_expire'
    | 'soa_minimum'
    | 'soa_ttl'
  >
> & {
  /** Users see only zones of an account (platform-held zones have none and are never shown). */
  user_id: number;
  soa_email: string;
  record_count: number | null;
};

export function zoneView(zone: ZoneWithCount): ZoneView {
  return {
    id: zone.id,
    service_id: zone.service_id,
    user_id: Number(zone.user_id),
    org_id: zone.org_id,
    domain: zone.domain,
    status: zone.status,
    dnssec_enabled: zone.dnssec_enabled,
    serial: Number(zone.serial),
    soa_email: effectiveSoaEmail(zone),
    record_count: zone.record_count,
    created_at: new Date(zone.created_at).toISOString(),
    updated_at: new Date(zone.updated_at).toISOString(),
  };
}
