import { defineBudget } from '../../kernel/limits/budget.ts';

/** `POST /orgs/{org_slug}/partners/{partner}/boosts`: 600 an hour per organization. */
export const boostClaimBudget = defineBudget({
  action: 'gameproxy.boost_claim',
  count: 600,
  windowS: 3600,
  scope: 'owner',
});
