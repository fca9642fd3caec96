/** RFC 6238 defaults every authenticator app uses: 30-second steps, 6 digits, HMAC-SHA1. */
export const TOTP_STEP_S = 30;

/** otplib, loaded on first use: only the API checks codes (it costs about 8 MiB resident). */
const otplib = () => import('otplib');

export async function newTotpSecret(): Promise<string> {
  return (await otplib()).generateSecret();
}

export async function totpUri(issuer: string, account: string, secret: string): Promise<string> {
  return (await otplib()).generateURI({ issuer, label: account, secret });
}

/** The code for `nowMs` (tests compute what an authenticator app would show). */
export async function totpCode(secret: string, nowMs: number): Promise<string> {
  return (await otplib()).generate({ secret, epoch: Math.floor(nowMs / 1000) });
}

/**
 * The time step `code` belongs to, accepting one step of clock drift each way (RFC 6238 §5.2),
 * or null when it matches none.
 */
export async function totpStep(secret: string, code: string, nowMs: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const nowS = Math.floor(nowMs / 1000);
  const result = await (
    await otplib()
  ).verify({ secret, token: code, epoch: nowS, epochTolerance: TOTP_STEP_S });
  return result.valid ? Math.floor(nowS / TOTP_STEP_S) + result.delta : null;
}
