import { effectiveSoaEmail } from '../shared/zone-domain.ts';
import type { ZoneWithCount } from './zones-repository.ts';

/** The seed's zone shape. */
export interface ZoneView {
  id: number;
  service_id: number | null;
  user_id: number;
  org_id: number | null;
  domain: string;
  status: string;
  dnssec_enabled: boolean;
  serial: number;
  soa_email: string;
  record_count: number | null;
  created_at: string;
  updated_at: string;
}

export function zoneView(zone: ZoneWithCount): ZoneView {
  return {
    id: zone.id,
    service_id: zone.service_id,
    user_id: zone.user_id,
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
