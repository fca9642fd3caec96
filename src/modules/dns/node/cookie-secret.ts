import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const FILE = 'dns-cookie-secret';

/**
 * The master secret of this node's DNS server cookies: DNS_COOKIE_SECRET when set (give every
 * node of an anycast group the same one, RFC 9018 §5), else 16 random octets kept in DATA_DIR
 * (mode 0600), made on first start; the workers of a node read the same file. The secret that
 * signs cookies is derived from it per day (ServerCookies), so it rolls without coordination.
 */
export function cookieMasterSecret(configured: string | null, dataDir: string): Uint8Array {
  if (configured !== null) return new Uint8Array(Buffer.from(configured, 'hex'));
  const file = path.join(dataDir, FILE);
  const read = (): Uint8Array | null => {
    try {
      const hex = readFileSync(file, 'utf8').trim();
      return /^[0-9a-f]{32}$/i.test(hex) ? new Uint8Array(Buffer.from(hex, 'hex')) : null;
    } catch {
      return null;
    }
  };
  const existing = read();
  if (existing !== null) return existing;
  mkdirSync(dataDir, { recursive: true });
  // Written whole under a name of its own, then linked in place: a reader never sees half a file.
  const tmp = `${file}.${process.pid}`;
  writeFileSync(tmp, randomBytes(16).toString('hex'), { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
  // Another worker may have written it first: whoever won, everyone reads the same.
  const made = read();
  if (made === null) throw new Error(`${file} holds no 16-octet hex secret`);
  return made;
}
