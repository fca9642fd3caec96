import { defineBudget } from '../../../kernel/limits/budget.ts';

/**
 * `POST /orgs/{org_slug}/vps/{uuid}/power`: 24 a minute per instance. Counted by the service once
 * the caller may change the instance and the action applies, so calls on another organization's
 * instance (404), refused (403, 409) or malformed use nothing of it.
 */
export const vpsPowerBudget = defineBudget({
  action: 'vps.power',
  count: 24,
  windowS: 60,
  scope: 'target',
  countedBy: 'handler',
});
