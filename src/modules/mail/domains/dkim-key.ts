import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A new DKIM key: 2048-bit RSA (RFC 8301 §3.2 asks at least 1024, recommends 2048). */
export async function newDkimKey(): Promise<{ privateKeyPem: string; publicKeyBase64: string }> {
  // Generated off the event loop: a 2048-bit key takes tens to hundreds of milliseconds.
  const { privateKey, publicKey } = await generate('rsa', { modulusLength: 2048 });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyBase64: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

/** A selector of its own per domain (RFC 6376 §3.1): `rl` + 8 base32 characters. */
export function newSelector(): string {
  return `rl${[...randomBytes(8)].map((b) => BASE32[b & 31]).join('')}`;
}

/** The key record's text (RFC 6376 §3.6.1). */
export function dkimRecordText(publicKeyBase64: string): string {
  return `v=DKIM1; k=rsa; p=${publicKeyBase64}`;
}

/**
 * A TXT value in presentation form, cut into character-strings of at most 255 bytes (RFC 1035
 * §3.3.14): a 2048-bit key record is about 400 characters. Readers join them (RFC 6376 §3.6.2.2).
 */
export function txtPresentation(text: string): string {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += 255) parts.push(`"${text.slice(i, i + 255)}"`);
  return parts.join(' ');
}
