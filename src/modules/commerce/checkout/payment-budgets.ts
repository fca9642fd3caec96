import { defineBudget } from '../../../kernel/limits/budget.ts';

/** The seed's words for a payment limit's 429 (the budgets' `exhausted` form, without `action`). */
const EXHAUSTED = 'Too many payment attempts for this cart. Try again in a few minutes.';

/**
 * Payment sessions and completion: 20 attempts per cart in 10 minutes. Counted by the service
 * once the cart is known to be the calling key's, so another's cart id uses nothing of it.
 */
export const cartPaymentBudget = defineBudget({
  action: 'store.payment_cart',
  count: 20,
  windowS: 600,
  scope: 'target',
  exhausted: EXHAUSTED,
  countedBy: 'handler',
});

/** The same routes: 60 attempts per client address and store in 10 minutes. */
export const addressPaymentBudget = defineBudget({
  action: 'store.payment_address',
  count: 60,
  windowS: 600,
  scope: 'client_ip',
  exhausted: EXHAUSTED,
  countedBy: 'handler',
});

/** Whose attempts a call counts as, for each budget. */
export const cartBudgetKey = (orgId: number, cartId: number): string => `org:${orgId}:cart:${cartId}`;
export const addressBudgetKey = (orgId: number, ip: string): string => `org:${orgId}:ip:${ip}`;
