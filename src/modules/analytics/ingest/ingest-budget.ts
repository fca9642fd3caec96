import { defineBudget } from '../../../kernel/limits/budget.ts';

/** Hits a client address may send a second to the public ingestion route. */
export const ingestBudget = defineBudget({
  action: 'analytics.ingest',
  count: 10,
  windowS: 1,
  scope: 'client_ip',
});
