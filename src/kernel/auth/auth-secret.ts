import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The token signing key: AUTH_SECRET when configured (required when several API processes share
 * a database), otherwise a random key kept in DATA_DIR with mode 0600, created on first start.
 */
export function resolveAuthSecret(configured: string | null, dataDir: string): string {
  if (configured !== null) return configured;
  const file = path.join(dataDir, 'auth-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}
