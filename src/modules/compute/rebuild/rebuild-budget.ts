import { defineBudget } from '../../../kernel/limits/budget.ts';

/**
 * `POST /orgs/{org_slug}/vps/{uuid}/rebuild`: 8 in 10 minutes per instance; counted by the service
 * once the caller may change the instance and the template is one it can be rebuilt from.
 */
export const vpsRebuildBudget = defineBudget({
  action: 'vps.rebuild',
  count: 8,
  windowS: 600,
  scope: 'target',
  countedBy: 'handler',
});
