import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the certificates module, with its stable code. */
export const certificateNotFound = defineError('certificates.not_found', 404, 'Certificate not found');
/** The name lies in a zone hosted here that is another account's. */
export const certificateZoneNotFound = defineError('certificates.zone_not_found', 404, 'Zone not found');
/** Retry-After: until the oldest issuance counted leaves the 7-day window. */
export const certificateLimitReached = defineError(
  'certificates.limit_reached',
  429,
  (registeredDomain: string, _retryAfterS: number) => `Certificate limit reached for ${registeredDomain}`,
  (_registeredDomain: string, retryAfterS: number) => ({ 'retry-after': String(retryAfterS) }),
);
export const certificateActive = defineError(
  'certificates.active',
  409,
  (domain: string) => `A certificate for ${domain} is already requested or issued`,
);
export const certificateBusy = defineError(
  'certificates.busy',
  409,
  'Certificate is being issued; wait for it to finish',
);
export const txtNotFound = defineError('certificates.txt_not_found', 409, 'TXT record not found yet');
export const notPointingHere = defineError(
  'certificates.not_pointing_here',
  409,
  (domain: string) => `${domain} does not resolve to this server`,
);
export const noChallengeStarted = defineError(
  'certificates.no_challenge',
  404,
  'No challenge started for this domain',
);
export const revocationRefused = defineError(
  'certificates.revocation_refused',
  502,
  (detail: string) => `The certificate authority refused the revocation: ${detail}`,
);
export const unknownProvider = defineError(
  'certificates.unknown_provider',
  422,
  (name: string) => `Unknown certificate provider: ${name}`,
);
