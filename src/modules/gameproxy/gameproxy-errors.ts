import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the game proxy module, with its stable code. */
export const routeNotFound = defineError('gameproxy.route_not_found', 404, 'Game proxy route not found');

/** A boost's server_address names no route here (nor a verified custom domain of one). */
export const unknownServerAddress = defineError(
  'gameproxy.unknown_server_address',
  422,
  (where: string, address: string) => [
    {
      type: 'unknown_server_address',
      loc: [where, 'server_address'],
      msg: 'Not the address of a game route here (<subdomain>.<base_domain> or its verified custom domain)',
      input: address,
      ctx: {},
    },
  ],
);
/** The route's upstream is not a game server service (a host and port, or another product). */
export const boostNotGameServer = defineError(
  'gameproxy.boost_not_game_server',
  403,
  'The route’s upstream is not a game server service',
);
/** The route's game server is not the organization's the partner key speaks for. */
export const boostOtherOrganization = defineError(
  'gameproxy.boost_other_organization',
  403,
  'The route’s game server is not this organization’s',
);
/** Boosts are for free game servers alone. */
export const boostPaidServer = defineError(
  'gameproxy.boost_paid_server',
  403,
  'The route’s game server is not on a free plan',
);
/** The game server is not running (suspended, ended, not made yet). */
export const boostServerInactive = defineError(
  'gameproxy.boost_server_inactive',
  403,
  'The route’s game server is not active',
);
/** One boost at a time per game server. */
export const boostAlreadyActive = defineError(
  'gameproxy.boost_already_active',
  409,
  (expiresAt: string) => `The game server already has a boost, until ${expiresAt}`,
);
/** A claim_id already granted, for another server address. */
export const boostClaimConflict = defineError(
  'gameproxy.boost_claim_conflict',
  409,
  'This claim_id was already granted for another server address',
);

export const customDomainNotFound = defineError(
  'gameproxy.custom_domain_not_found',
  404,
  'Custom domain not found',
);

export const customDomainsDisabled = defineError(
  'gameproxy.custom_domains_disabled',
  403,
  'Custom domains are not offered on this platform',
);

export const customDomainExists = defineError(
  'gameproxy.custom_domain_exists',
  409,
  'The route already has a custom domain',
);

export const customDomainTaken = defineError(
  'gameproxy.custom_domain_taken',
  409,
  'Custom domain already used by another route',
);

export const routeLimitReached = defineError(
  'gameproxy.route_limit_reached',
  403,
  (max: number) => `Game proxy route limit reached (${max})`,
);

export const addressTaken = defineError('gameproxy.address_taken', 409, 'Game proxy address already taken');

export const routeOrgNotFound = defineError('gameproxy.org_not_found', 404, 'Organization not found');
