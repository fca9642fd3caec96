import { defineBudget } from '../../kernel/limits/budget.ts';

/** `GET /client/platform-domains/availability`: 60 a minute per account. */
export const availabilityBudget = defineBudget({
  action: 'platform_domains.availability',
  count: 60,
  windowS: 60,
  scope: 'account',
});

/** `POST /client/platform-domains/claims`: 6 an hour per account. */
export const claimBudget = defineBudget({
  action: 'platform_domains.claim',
  count: 6,
  windowS: 3600,
  scope: 'account',
});
