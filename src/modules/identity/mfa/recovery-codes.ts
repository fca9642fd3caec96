import { createHash, randomInt } from 'node:crypto';

export const RECOVERY_CODES = 10;
/** Crockford's base32 alphabet: no I, L, O, U to misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Ten one-time codes, `xxxxx-xxxxx` (50 random bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** The stored digest of a code as a user may type it (any case, with or without the dash). */
export function recoveryCodeDigest(code: string): string {
  return createHash('sha256').update(code.trim().toLowerCase().replace(/[\s-]/g, '')).digest('hex');
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[0-9a-z]{5}-?[0-9a-z]{5}$/i.test(code.trim());
}
