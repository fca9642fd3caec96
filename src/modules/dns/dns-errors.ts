import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the DNS module, with its stable code. */

export const zoneNotFound = defineError('dns.zone_not_found', 404, 'Zone not found');
export const zoneExists = defineError('dns.zone_exists', 409, 'Zone already exists');
/**
 * A zone below or above a zone another account or organization holds: either would answer for
 * the other's names (a parent's delegation, a child's occlusion).
 */
export const zoneHeldByAnother = defineError(
  'dns.zone_held_by_another',
  409,
  'Zone is inside a zone held by another account',
);
/** A zone a module hands out (a platform domain claim): the module deletes it, not the zone routes. */
export const zoneManaged = defineError(
  'dns.zone_managed',
  409,
  (module: string) => `Zone is managed by ${module}`,
);
/** POST /zones with an org_slug the caller is no member of (or that does not exist). */
export const zoneOrgNotFound = defineError('dns.org_not_found', 404, 'Organization not found');
export const zoneServiceNotFound = defineError('dns.service_not_found', 404, 'Service not found');
export const zoneServiceInactive = defineError('dns.service_not_active', 409, 'Service is not active');
export const zoneLimitReached = defineError(
  'dns.zone_limit_reached',
  403,
  (max: number) => `Zone limit reached (${max})`,
);
export const recordNotFound = defineError('dns.record_not_found', 404, 'Record not found');
export const recordExists = defineError('dns.record_exists', 409, 'Record already exists');
/** A zone rule refused the change (CNAME beside other data, NS hiding records, ...). */
export const recordConflict = defineError('dns.record_conflict', 409, (message: string) => message);
export const lastNsBeforeDs = defineError(
  'dns.last_ns_before_ds',
  409,
  (name: string) => `Remove the DS records at ${name} before its last NS record`,
);
export const recordManaged = defineError(
  'dns.record_managed',
  409,
  (module: string) => `Record is managed by ${module}`,
);

/** POST /zones/{id}/dnssec/rollover on a zone that is not signed. */
export const dnssecNotEnabled = defineError(
  'dns.dnssec_not_enabled',
  409,
  'DNSSEC is not enabled for this zone',
);
/** POST /zones/{id}/dnssec/rollover while one runs. */
export const kskRolloverRunning = defineError(
  'dns.ksk_rollover_running',
  409,
  'A KSK rollover is already in progress',
);
