import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the analytics module, with its stable code. */
export const siteNotFound = defineError('analytics.site_not_found', 404, 'Site not found');
export const orgNotFound = defineError('analytics.org_not_found', 404, 'Organization not found');
