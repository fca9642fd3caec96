import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A key begins with a fixed prefix ending in `_` (docs/keys-and-limits.md, "Credentials"). */
export const ACCOUNT_KEY_PREFIX = 'acct_';
export const ORG_KEY_PREFIX = 'org_';
export const RELAY_KEY_PREFIX = 'relay_';
export const PARTNER_KEY_PREFIX = 'partner_';

/** Characters after the prefix that locate a key's row (an index, not a secret). */
const LOOKUP_CHARS = 12;

export interface NewKey {
  /** The key itself: shown once, never stored. */
  readonly raw: string;
  readonly lookup: string;
  readonly hash: string;
}

export function keyDigest(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** A new key: prefix + 40 characters (240 random bits) in base64url. */
export function newKey(prefix: string): NewKey {
  const raw = `${prefix}${randomBytes(30).toString('base64url')}`;
  return { raw, lookup: lookupOf(raw, prefix)!, hash: keyDigest(raw) };
}

/** The lookup part of a presented key, or null when it cannot be one of ours. */
export function lookupOf(raw: string, prefix: string): string | null {
  if (!raw.startsWith(prefix) || raw.length !== prefix.length + 40) return null;
  return raw.slice(0, prefix.length + LOOKUP_CHARS);
}

/** Whether `raw` is the key whose digest is stored, compared in constant time. */
export function keyMatches(raw: string, storedHash: string): boolean {
  const a = Buffer.from(keyDigest(raw), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
