import { randomBytes } from 'node:crypto';
import { readOrCreateKeyFile } from '../crypto/key-file.ts';

/**
 * The token signing key: AUTH_SECRET when configured (required when several API processes share
 * a database), otherwise a random key kept in DATA_DIR with mode 0600, created on first start.
 */
export function resolveAuthSecret(configured: string | null, dataDir: string): string {
  return (
    configured ?? readOrCreateKeyFile(dataDir, 'auth-secret', () => randomBytes(48).toString('base64url'))
  );
}
