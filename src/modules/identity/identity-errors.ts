import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the identity module. */
const BEARER = { 'WWW-Authenticate': 'Bearer' };

export const emailTaken = defineError('identity.email_taken', 409, 'Email already registered');
export const badCredentials = defineError(
  'identity.bad_credentials',
  401,
  'Incorrect email or password',
  BEARER,
);
export const invalidRefreshToken = defineError(
  'identity.invalid_refresh_token',
  401,
  'Invalid refresh token',
  BEARER,
);
export const invalidResetToken = defineError(
  'identity.invalid_reset_token',
  400,
  'Invalid or expired reset token',
);
/**
 * Over the forgot-password counts, the answer is the failed sign-in limit's
 * (docs/identity-and-organizations.md, "Password reset").
 */
export const tooManyResetRequests = defineError(
  'identity.reset_requests_limited',
  429,
  'Too many authentication attempts. Please try again later.',
  (retryAfterS: number) => ({ 'Retry-After': String(retryAfterS) }),
);
export const invalidMfaCode = defineError('identity.invalid_mfa_code', 400, 'Invalid authentication code');
/** A wrong second factor while signing in: a failed sign-in (401), counted as one. */
export const mfaCodeRejected = defineError(
  'identity.mfa_code_rejected',
  401,
  'Invalid authentication code',
  BEARER,
);
export const invalidMfaToken = defineError(
  'identity.invalid_mfa_token',
  401,
  'Invalid or expired MFA token',
  BEARER,
);
export const mfaAlreadyEnabled = defineError('identity.mfa_enabled', 409, 'MFA is already enabled');
export const mfaNotEnabled = defineError('identity.mfa_not_enabled', 409, 'MFA is not enabled');
export const mfaNotStarted = defineError(
  'identity.mfa_not_started',
  409,
  'Start enrolment first: POST /api/v1/auth/mfa/enable without a body',
);
