import { defineBudget } from '../../../kernel/limits/budget.ts';

/**
 * Routes under /client/servers/{uuid}/software/ that install, change or update: 8 in 10 minutes
 * per server. Counted by the service once the caller may install on the server, so calls on
 * another's server (404) or without the permission (403) use nothing of it.
 */
export const softwareBudget = defineBudget({
  action: 'container.software',
  count: 8,
  windowS: 600,
  scope: 'target',
  countedBy: 'handler',
});

/** `POST /client/servers/{uuid}/power`: 24 a minute per server (counted as above). */
export const powerBudget = defineBudget({
  action: 'container.power',
  count: 24,
  windowS: 60,
  scope: 'target',
  countedBy: 'handler',
});

/** The key a server's calls count under: the form the kernel gives `target` budgets. */
export const serverBudgetKey = (uuid: string): string => `uuid=${uuid}`;
