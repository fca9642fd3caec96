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
