import { defineEvent } from '../../kernel/events/domain-events.ts';

/** A key was revoked: every API process forgets it at once (else within KEY_CACHE_MS, 10 s). */
export const orgKeyRevoked = defineEvent<{ keyId: number; lookup: string }>('keys.org-key-revoked', (m) => {
  const e = m as { keyId?: unknown; lookup?: unknown } | null;
  return typeof e?.keyId === 'number' && typeof e.lookup === 'string'
    ? { keyId: e.keyId, lookup: e.lookup }
    : null;
});
