import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the game proxy module, with its stable code. */
export const routeNotFound = defineError('gameproxy.route_not_found', 404, 'Game proxy route not found');
export const routeLimitReached = defineError(
  'gameproxy.route_limit_reached',
  403,
  (max: number) => `Game proxy route limit reached (${max})`,
);
export const addressTaken = defineError('gameproxy.address_taken', 409, 'Game proxy address already taken');
export const routeOrgNotFound = defineError('gameproxy.org_not_found', 404, 'Organization not found');
