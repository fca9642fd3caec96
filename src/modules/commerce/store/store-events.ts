import { defineEvent } from '../../../kernel/events/domain-events.ts';

/** A publishable key was revoked: every API process forgets it at once (else within KEY_CACHE_MS). */
export const publishableKeyRevoked = defineEvent<{ lookup: string }>(
  'commerce.publishable-key-revoked',
  (m) => {
    const e = m as { lookup?: unknown } | null;
    return typeof e?.lookup === 'string' ? { lookup: e.lookup } : null;
  },
);
