import { defineBudget } from '../../../kernel/limits/budget.ts';

/** `POST /gameproxy/availability` and `/name-suggestions`: 60 a minute per account. */
export const availabilityBudget = defineBudget({
  action: 'gameproxy.availability',
  count: 60,
  windowS: 60,
  scope: 'account',
});

/** `POST /gameproxy/routes`: 30 an hour per account. */
export const createRouteBudget = defineBudget({
  action: 'gameproxy.route_create',
  count: 30,
  windowS: 3600,
  scope: 'account',
});
