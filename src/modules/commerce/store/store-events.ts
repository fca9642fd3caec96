import { defineEvent } from '../../../kernel/events/domain-events.ts';

/** A publishable key was revoked: every API process forgets it at once (else within KEY_CACHE_MS). */
export const publishableKeyRevoked = defineEvent<{ lookup: string }>(
  'commerce.publishable-key-revoked',
  (m) => {
    const e = m as { lookup?: unknown } | null;
    return typeof e?.lookup === 'string' ? { lookup: e.lookup } : null;
  },
);

/** The shop of an organization changed (not a cart): every API process forgets its cached product pages. */
export const shopCatalogChanged = defineEvent<{ orgId: number }>('commerce.shop-catalog-changed', (m) => {
  const e = m as { orgId?: unknown } | null;
  return typeof e?.orgId === 'number' ? { orgId: e.orgId } : null;
});
