import { generate, generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 defaults every authenticator app uses: 30-second steps, 6 digits, HMAC-SHA1. */
export const TOTP_STEP_S = 30;

export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(issuer: string, account: string, secret: string): string {
  return generateURI({ issuer, label: account, secret });
}

/** The code for `nowMs` (tests compute what an authenticator app would show). */
export function totpCode(secret: string, nowMs: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(nowMs / 1000) });
}

/**
 * The time step `code` belongs to, accepting one step of clock drift each way (RFC 6238 §5.2),
 * or null when it matches none.
 */
export async function totpStep(secret: string, code: string, nowMs: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const nowS = Math.floor(nowMs / 1000);
  const result = await verify({ secret, token: code, epoch: nowS, epochTolerance: TOTP_STEP_S });
  return result.valid ? Math.floor(nowS / TOTP_STEP_S) + result.delta : null;
}
