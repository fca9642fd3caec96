/** The billing module's public surface. */
export { createBillingModule, type BillingModuleDeps } from './billing-module.ts';
export { billingConfig } from './billing-config.ts';
