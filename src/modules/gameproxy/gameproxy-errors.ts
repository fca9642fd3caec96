import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the game proxy module, with its stable code. */
export const routeNotFound = defineError('gameproxy.route_not_found', 404, 'Game proxy route not found');
