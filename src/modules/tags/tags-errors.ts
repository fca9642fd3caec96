import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the tags module, with its stable code. */
export const resourceNotFound = defineError('tags.resource_not_found', 404, 'Resource not found');
