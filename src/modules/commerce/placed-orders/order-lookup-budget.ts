import { defineBudget } from '../../../kernel/limits/budget.ts';

/**
 * `POST /orgs/{org_slug}/store/orders/lookup`: 10 a minute per client address and shop. An e-mail
 * and a small order number are easy to guess together; the budget keeps guessing slow.
 */
export const orderLookupBudget = defineBudget({
  action: 'store.order_lookup',
  count: 10,
  windowS: 60,
  scope: 'client_ip',
});
