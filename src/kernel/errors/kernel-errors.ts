import { defineError } from './error-registry.ts';

/** Errors the kernel itself answers (authentication, limits, the HTTP edge). */
export const notAuthenticated = defineError('auth.not_authenticated', 401, 'Not authenticated', {
  'WWW-Authenticate': 'Bearer',
});
export const forbiddenRole = defineError('auth.forbidden', 403, 'Not enough permissions');
export const rateLimitExceeded = defineError(
  'limits.rate_limit_exceeded',
  429,
  'Rate limit exceeded',
  (retryAfterSeconds: number) => ({ 'Retry-After': String(retryAfterSeconds) }),
);
export const tooManyAuthAttempts = defineError(
  'limits.auth_failures',
  429,
  'Too many authentication attempts. Please try again later.',
  { 'Retry-After': '60' },
);
export const routeNotFound = defineError('http.not_found', 404, 'Not Found');
export const bodyTooLarge = defineError('http.body_too_large', 413, 'Request body is too large');
export const unsupportedMediaType = defineError('http.unsupported_media_type', 415, 'Unsupported media type');
export const internalError = defineError('http.internal', 500, 'Internal Server Error');
/** PostgreSQL or Redis does not answer: the request may succeed once it is back. */
export const backendUnavailable = defineError(
  'http.backend_unavailable',
  503,
  'Service temporarily unavailable',
  { 'Retry-After': '5' },
);
/** An Idempotency-Key sent again with another request (Stripe's rule, https://docs.stripe.com/api/idempotent_requests). */
export const idempotencyKeyReused = defineError(
  'http.idempotency_key_reused',
  409,
  'Idempotency-Key reused with a different request',
);
/** The first request with this Idempotency-Key has not answered yet. */
export const idempotencyKeyInProgress = defineError(
  'http.idempotency_key_in_progress',
  409,
  'A request with this Idempotency-Key is still in progress',
);
