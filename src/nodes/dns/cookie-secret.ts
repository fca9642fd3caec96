import { randomBytes } from 'node:crypto';
import { readOrCreateKeyFile } from '../../kernel/crypto/key-file.ts';

/**
 * The master secret of this node's DNS server cookies: DNS_COOKIE_SECRET when set (give every
 * node of an anycast group the same one, RFC 9018 §5), else 16 random octets kept in DATA_DIR,
 * made on first start; the workers of a node read the same file. The secret that signs cookies is
 * derived from it per day (ServerCookies), so it rolls without coordination.
 */
export function cookieMasterSecret(configured: string | null, dataDir: string): Uint8Array {
  const hex =
    configured ?? readOrCreateKeyFile(dataDir, 'dns-cookie-secret', () => randomBytes(16).toString('hex'));
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error('the DNS cookie secret must be 32 hex digits');
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
