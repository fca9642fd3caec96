import { defineError } from '../../../kernel/errors/error-registry.ts';

/** The Store API's door (publishable-key-check.ts), worded as the Commerce API's gate words its own. */
export const missingPublishableKey = defineError(
  'commerce.publishable_key_missing',
  401,
  'Missing publishable key (x-publishable-api-key)',
);
export const invalidPublishableKey = defineError(
  'commerce.publishable_key_invalid',
  401,
  'Invalid publishable key',
);
/** Another organization's key, or an organization that is not active: no store here. */
export const storeOrgNotFound = defineError('commerce.store_org_not_found', 404, 'Organization not found');
export const storeCommerceDisabled = defineError(
  'commerce.store_disabled',
  404,
  'Commerce is not enabled for this organization.',
);
