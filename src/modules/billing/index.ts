/** The billing module's public surface. */
export { createBillingModule, type BillingModule, type BillingModuleDeps } from './billing-module.ts';
export { billingConfig } from './billing-config.ts';
export type { BillingRunResult, BillingRunSettings } from './billing-run.ts';
