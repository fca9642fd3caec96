import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the resellers module (docs/billing.md, "Resellers"). */
export const orgServiceNotFound = defineError('resellers.service_not_found', 404, 'Service not found');
