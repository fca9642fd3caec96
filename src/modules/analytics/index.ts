/** The analytics module's public surface. */
export { createAnalyticsModule, type AnalyticsModule, type AnalyticsModuleDeps } from './analytics-module.ts';
export type { HeardOrderEvent, OrderEventsListener } from './analytics-interfaces.ts';
