import { generate } from 'otplib';

/**
 * What an authenticator app shows for `secret` at `nowMs` (RFC 6238: 30-second steps, 6 digits,
 * HMAC-SHA1): the user's side of multi-factor sign-in, as tests play it.
 */
export function authenticatorCode(secret: string, nowMs: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(nowMs / 1000) });
}
