/**
 * TSIG secrets at rest: sealed with the AES-256-GCM helper of DNSSEC private keys
 * (key-encryption.ts), bound to their zone by the additional data, so a sealed secret cannot be
 * moved to another zone. Clear secrets only exist in memory, for the HMAC.
 */
import type { KeyEncryption } from '../dnssec/key-encryption.ts';

function context(zoneId: number): string {
  return `tsig-secret:${zoneId}`;
}

export function sealTsigSecret(enc: KeyEncryption, zoneId: number, secret: Uint8Array): Uint8Array {
  return enc.encrypt(secret, context(zoneId));
}

/** Throws when the secret was sealed under another key-encryption key or zone. */
export function openTsigSecret(enc: KeyEncryption, zoneId: number, sealed: Uint8Array): Uint8Array {
  return enc.decrypt(sealed, context(zoneId));
}
