import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the platform domains module, with its stable code. */
export const CLAIM_LIMIT = 5;

export const claimNotFound = defineError('platform_domains.claim_not_found', 404, 'Claim not found');
export const claimLimitReached = defineError(
  'platform_domains.claim_limit_reached',
  403,
  `Platform domain claim limit reached (${CLAIM_LIMIT})`,
);
export const nameTaken = defineError('platform_domains.taken', 409, 'Platform domain already claimed');
export const notDelegated = defineError(
  'platform_domains.not_delegated',
  409,
  (suffix: string) => `${suffix} is not delegated to this platform's name servers yet`,
);
