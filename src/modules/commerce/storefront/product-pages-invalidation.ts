import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { shopCatalogChanged } from '../store/store-events.ts';

/** What a cart's change touches is not on a product page: its events leave the pages cached. */
const touchesPages = (name: string): boolean => !name.startsWith('commerce.cart.');

/**
 * Keeps the cached product pages current: a committed change of the shop (products, prices,
 * channels, stock, regions, orders' reservations) forgets this process's pages at once and tells
 * the other API processes through the bus. Answers the subscription to start at the module's start.
 */
export function keepProductPagesCurrent(
  ctx: CommerceContext,
  log: ShopEventLog,
  cache: { invalidate(orgId: number): void },
): () => Promise<() => Promise<void>> {
  log.onCommitted((orgId, names) => {
    if (!names.some(touchesPages)) return;
    cache.invalidate(orgId);
    void ctx.events.publish(shopCatalogChanged, { orgId }).catch(() => undefined);
  });
  return () => ctx.events.subscribe(shopCatalogChanged, (e) => cache.invalidate(e.orgId));
}
