import { defineError } from '../../kernel/errors/error-registry.ts';

/**
 * Every error of the load-balancing module. Their stable codes keep the `dns.` prefix they had
 * when load balancing was part of the DNS module: clients read them in `X-Error-Code`.
 */

/** How many of each a zone may hold (docs/dns-and-load-balancing.md, "Limits"). */
export const POOL_LIMIT = 50;
export const MEMBER_LIMIT = 20;
export const LB_LIMIT = 50;
export const STEERING_ENTRY_LIMIT = 200;

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
/** The two pool families (/pools and /lb-pools) each have their own duplicate-name message. */
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
