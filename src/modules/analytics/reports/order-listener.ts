import type { Transaction } from 'kysely';
import type { Logger } from '../../../kernel/log/logger.ts';
import type { AnalyticsTables } from '../analytics-tables.ts';
import type { HeardOrderEvent, OrderEventsListener } from '../analytics-interfaces.ts';
import type { StatsRepository } from './reports-repository.ts';

/**
 * The order reference a storefront page links to its visit, for each order event: a Store API
 * order (`commerce.order.placed`) by its cart, a portal order (`order.created`) by its customer.
 * A cart completes once, so its link is used once; a customer's serves each order of the visit.
 */
function refOf(event: HeardOrderEvent): { ref: string; once: boolean } | null {
  if (event.name === 'commerce.order.placed' && event.data.cart_id !== undefined)
    return { ref: `cart:${String(event.data.cart_id)}`, once: true };
  if (event.name === 'order.created' && event.data.customer_id !== undefined)
    return { ref: `customer:${String(event.data.customer_id)}`, once: false };
  return null;
}

/** Counts each heard storefront order on the visit its cart or customer was linked to. */
export function orderListener(repo: StatsRepository, log: Logger): OrderEventsListener {
  return async (trx, events) => {
    const within = repo.withTx(trx as Transaction<AnalyticsTables>);
    for (const event of events) {
      const ref = refOf(event);
      if (ref === null || event.orgId === null) continue;
      try {
        await within.convert(Number(event.orgId), ref.ref, ref.once);
      } catch (error) {
        log.warn({ err: error, event: event.name }, 'order not counted as a conversion');
      }
    }
    return [];
  };
}
