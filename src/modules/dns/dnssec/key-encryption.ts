/**
 * Encryption at rest of DNSSEC private keys: AES-256-GCM (NIST SP 800-38D) with a random 96-bit IV
 * per key and the zone id and key role as additional data, so a ciphertext cannot be moved to
 * another zone or role. The key-encryption key is DNSSEC_KEY_ENCRYPTION_KEY (32 bytes, base64);
 * without it, a random key kept in DATA_DIR with mode 0600, created on first start (as
 * auth-secret.ts) — which only suits a single host: several hosts sharing a database must set it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const DNSSEC_KEK_FILE = 'dnssec-key-encryption-key';

export function resolveDnssecKek(configured: string | null, dataDir: string): Buffer {
  if (configured !== null) return Buffer.from(configured, 'base64');
  const file = path.join(dataDir, DNSSEC_KEK_FILE);
  const read = (): Buffer => Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  try {
    return read();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process of this node created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return read();
  }
}

export class KeyEncryption {
  constructor(private readonly kek: Buffer) {
    if (kek.length !== KEY_BYTES) throw new Error('the DNSSEC key-encryption key must be 32 bytes');
  }

  encrypt(plain: Uint8Array, context: string): Uint8Array {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.kek, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), body]));
  }

  /** Throws when the data was altered, or encrypted under another key or context. */
  decrypt(sealed: Uint8Array, context: string): Uint8Array {
    const b = Buffer.from(sealed);
    const decipher = createDecipheriv('aes-256-gcm', this.kek, b.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(b.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return new Uint8Array(
      Buffer.concat([decipher.update(b.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]),
    );
  }
}

/** The additional data binding a private key to its zone and role. */
export function keyContext(zoneId: number, role: string): string {
  return `dnssec-key:${zoneId}:${role}`;
}

/** The KeyEncryption of this node's configuration. */
export function keyEncryptionFromConfig(config: {
  readonly dnssecKeyEncryptionKey: string | null;
  readonly dataDir: string;
}): KeyEncryption {
  return new KeyEncryption(resolveDnssecKek(config.dnssecKeyEncryptionKey, config.dataDir));
}
