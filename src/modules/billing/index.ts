/** The billing module's public surface. */
export { createBillingModule, type BillingModule, type BillingModuleDeps } from './billing-module.ts';
export { billingConfig } from './billing-config.ts';
export type { BillingRunResult, BillingRunSettings } from './billing-run.ts';
export type {
  BillingInsights,
  CustomerBilling,
  CustomerListQuery,
  CustomerPaged,
  InvoiceSummaryView,
  InvoiceView,
  ProductModeName,
  TransactionView,
} from './billing-interfaces.ts';
export {
  CreditResponse,
  Filter422,
  InvoiceResponse,
  InvoiceSummaryResponse,
  PayBody,
  TransactionResponse,
} from './billing-schemas.ts';
export { amountOf } from './money.ts';
