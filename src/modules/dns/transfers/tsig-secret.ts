/**
 * TSIG secrets at rest: sealed with the AES-256-GCM helper of DNSSEC private keys
 * (key-encryption.ts), bound to their zone by the additional data, so a sealed secret cannot be
 * moved to another zone. Clear secrets only exist in memory, for the HMAC.
 */
import type { Sealer } from '../../../kernel/crypto/sealing.ts';

function context(zoneId: number): string {
  return `tsig-secret:${zoneId}`;
}

export function sealTsigSecret(enc: Sealer, zoneId: number, secret: Uint8Array): Uint8Array {
  return enc.seal(secret, context(zoneId));
}

/** Throws when the secret was sealed under another key-encryption key or zone. */
export function openTsigSecret(enc: Sealer, zoneId: number, sealed: Uint8Array): Uint8Array {
  return enc.open(sealed, context(zoneId));
}
