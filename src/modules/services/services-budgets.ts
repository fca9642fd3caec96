import { defineBudget } from '../../kernel/limits/budget.ts';

/**
 * `POST /services/order` of a zero-cost plan: 12 in 10 minutes per account (a storefront
 * customer's own account on the organization's portal). Counted by the service once it knows the
 * price (a paid order does not count).
 */
export const freeOrderBudget = defineBudget({
  action: 'storefront.free_order',
  count: 12,
  windowS: 10 * 60,
  scope: 'account',
  countedBy: 'handler',
});
