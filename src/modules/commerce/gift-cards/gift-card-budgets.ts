import { defineBudget } from '../../../kernel/limits/budget.ts';

/** The 429's words (the budgets' `exhausted` form, as the payment limits'). */
const EXHAUSTED = 'Too many gift card attempts for this cart. Try again in a few minutes.';

/**
 * Applying a gift card code: 10 attempts per cart in 10 minutes, so codes cannot be tried in
 * bulk. Counted by the service once the cart is known to be the calling key's (checkout's pattern,
 * checkout/payment-budgets.ts).
 */
export const cartGiftCardBudget = defineBudget({
  action: 'store.gift_card_cart',
  count: 10,
  windowS: 600,
  scope: 'target',
  exhausted: EXHAUSTED,
  countedBy: 'handler',
});

/** The same route: 10 attempts per client address and store in 10 minutes (new carts do not help). */
export const addressGiftCardBudget = defineBudget({
  action: 'store.gift_card_address',
  count: 10,
  windowS: 600,
  scope: 'client_ip',
  exhausted: EXHAUSTED,
  countedBy: 'handler',
});

/** Whose attempts a call counts as, for each budget (the payment budgets' keys, checkout/payment-budgets.ts). */
export const giftCardCartKey = (orgId: number, cartId: number): string => `org:${orgId}:cart:${cartId}`;
export const giftCardAddressKey = (orgId: number, ip: string): string => `org:${orgId}:ip:${ip}`;
