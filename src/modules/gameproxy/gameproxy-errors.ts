import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the game proxy module, with its stable code. */
export const routeNotFound = defineError('gameproxy.route_not_found', 404, 'Game proxy route not found');
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
