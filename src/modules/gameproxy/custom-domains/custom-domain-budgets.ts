import { defineBudget } from '../../../kernel/limits/budget.ts';

/**
 * `POST /gameproxy/routes/{route_id}/custom-domain`: 12 an hour per route. Counted by the service
 * once the route is known to be the caller's, so calls on another's route (404) use nothing of it.
 */
export const linkBudget = defineBudget({
  action: 'custom_domain.link',
  count: 12,
  windowS: 3600,
  scope: 'target',
  countedBy: 'handler',
});

/** `POST /gameproxy/routes/{route_id}/custom-domain/verify`: 12 an hour per route (counted as above). */
export const verifyBudget = defineBudget({
  action: 'custom_domain.verify',
  count: 12,
  windowS: 3600,
  scope: 'target',
  countedBy: 'handler',
});

/** The key a route's calls count under: the form the kernel gives `target` budgets. */
export const routeBudgetKey = (routeId: number): string => `route_id=${routeId}`;
