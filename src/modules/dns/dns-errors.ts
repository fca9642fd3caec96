import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the DNS module, with its stable code (seed "Errors" for the load-balancing ones). */

/** Limits of the seed's "Other limits" table. */
export const POOL_LIMIT = 50;
export const MEMBER_LIMIT = 20;
export const LB_LIMIT = 50;
export const STEERING_ENTRY_LIMIT = 200;

export const zoneNotFound = defineError('dns.zone_not_found', 404, 'Zone not found');
export const zoneExists = defineError('dns.zone_exists', 409, 'Zone already exists');
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

export const poolNotFound = defineError('dns.pool_not_found', 404, 'Origin pool not found');
export const memberNotFound = defineError('dns.member_not_found', 404, 'LB member not found');
export const loadBalancerNotFound = defineError(
  'dns.load_balancer_not_found',
  404,
  'Load balancer not found',
);
export const poolLimitReached = defineError(
  'dns.pool_limit_reached',
  403,
  `Origin pool limit reached (${POOL_LIMIT})`,
);
export const memberLimitReached = defineError(
  'dns.member_limit_reached',
  403,
  `LB member limit reached (${MEMBER_LIMIT})`,
);
export const loadBalancerLimitReached = defineError(
  'dns.load_balancer_limit_reached',
  403,
  `Load balancer limit reached (${LB_LIMIT})`,
);
export const steeringLimitReached = defineError(
  'dns.steering_limit_reached',
  403,
  `Steering entry limit reached (${STEERING_ENTRY_LIMIT})`,
);
/** The two pool families each have their own duplicate-name message (seed "Errors"). */
export const poolNameTaken = defineError('dns.pool_name_taken', 409, 'Pool name already exists in this zone');
export const lbPoolNameTaken = defineError('dns.lb_pool_name_taken', 409, 'Pool name already exists');
export const poolInUse = defineError(
  'dns.pool_in_use',
  409,
  'Pool is referenced by a load balancer; remove it from maps/default/fallback first',
);
export const hostnameOwned = defineError(
  'dns.hostname_owned',
  409,
  'A load balancer already owns this hostname',
);
export const hostnameHasRecords = defineError(
  'dns.hostname_has_records',
  409,
  'Hostname already has A/AAAA/CNAME records; remove them before creating a load balancer',
);
/** Answered to a record write at a load balancer's hostname (and as an import line's problem). */
export const RECORD_AT_LB = 'A load balancer owns this hostname; A/AAAA/CNAME records cannot be added there';
export const PRIVATE_TARGET = 'health-check target targets a private or reserved network';

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
