import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the keys module (docs/keys-and-limits.md, "Errors"). */
export const accountKeyRefused = defineError(
  'keys.account_key_refused',
  401,
  'Account API keys are not accepted; sign in and send the access token',
);
export const apiKeyNotFound = defineError('keys.not_found', 404, 'API key not found');
export const missingApiKey = defineError('keys.missing', 401, 'Missing API key');
export const invalidApiKey = defineError('keys.invalid', 401, 'Invalid API key');
export const orgNotFoundForKey = defineError('keys.org_not_found', 404, 'Organization not found');
export const orgInactive = defineError('keys.org_inactive', 403, 'Organization inactive');
export const addressNotAllowed = defineError(
  'keys.address_not_allowed',
  403,
  'API key is not allowed from this address',
);
export const commerceDisabled = defineError(
  'keys.commerce_disabled',
  404,
  'Commerce is not enabled for this organization.',
);
export const keyRateLimited = defineError('keys.rate_limited', 429, 'API key rate limit exceeded', {
  'Retry-After': '3600',
});
export const scopeRequired = defineError('keys.scope_required', 403, (scope: string) => ({
  code: 'scope_required',
  message: `This API key needs the ${scope} scope.`,
}));
export const peopleOnly = defineError('keys.people_only', 403, {
  code: 'people_only',
  message:
    'The merchant profile holds the owners’ identities: manage it signed in as an owner or admin, not with an API key.',
});
export const invalidPartnerKey = defineError('keys.invalid_partner_key', 401, 'Invalid partner key');
export const partnerKeyNotFound = defineError('keys.partner_key_not_found', 404, 'Partner key not found');
