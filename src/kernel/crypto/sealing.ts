/**
 * Sealing of secrets at rest (DNSSEC private keys, TSIG secrets, and every later module's private
 * keys and signing secrets): AES-256-GCM (NIST SP 800-38D) with a random 96-bit IV per value and
 * a context string as additional data, so a sealed value cannot be moved to another owner or use.
 * The key is SEALING_KEY (32 bytes, base64; DNSSEC_KEY_ENCRYPTION_KEY is its former name);
 * without it, a random key kept in DATA_DIR with mode 0600, created on first start — which only
 * suits a single host: several hosts sharing a database must set it.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { readOrCreateKeyFile } from './key-file.ts';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The key file's name in DATA_DIR (kept from the first release, when only DNSSEC keys were sealed). */
export const SEALING_KEY_FILE = 'dnssec-key-encryption-key';

export function resolveSealingKey(configured: string | null, dataDir: string): Buffer {
  if (configured !== null) return Buffer.from(configured, 'base64');
  return Buffer.from(
    readOrCreateKeyFile(dataDir, SEALING_KEY_FILE, () => randomBytes(KEY_BYTES).toString('base64')),
    'base64',
  );
}

export class Sealer {
  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error('the sealing key must be 32 bytes');
  }

  seal(plain: Uint8Array, context: string): Uint8Array {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return new Uint8Array(Buffer.concat([iv, cipher.getAuthTag(), body]));
  }

  /** Throws when the data was altered, or sealed under another key or context. */
  open(sealed: Uint8Array, context: string): Uint8Array {
    const b = Buffer.from(sealed);
    const decipher = createDecipheriv('aes-256-gcm', this.key, b.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(b.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return new Uint8Array(
      Buffer.concat([decipher.update(b.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]),
    );
  }

  sealText(plain: string, context: string): Uint8Array {
    return this.seal(Buffer.from(plain, 'utf8'), context);
  }

  openText(sealed: Uint8Array, context: string): string {
    return Buffer.from(this.open(sealed, context)).toString('utf8');
  }

  /**
   * A keyed tag of `data` (HMAC-SHA256, RFC 2104) under a key derived from the sealing key for
   * `context` (HKDF, RFC 5869): for short values that must be checked but need not be hidden, such
   * as the token in a mail return path. Lower-case hex, `bytes` long (at most 32).
   */
  mac(data: string, context: string, bytes = 32): string {
    const key = Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `mac:${context}`, 32));
    return createHmac('sha256', key).update(data).digest().subarray(0, bytes).toString('hex');
  }
}

/** The Sealer of this node's configuration. */
export function sealerFromConfig(config: {
  readonly sealingKey: string | null;
  readonly dataDir: string;
}): Sealer {
  return new Sealer(resolveSealingKey(config.sealingKey, config.dataDir));
}
