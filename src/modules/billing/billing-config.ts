import { defineConfigSection } from '../../kernel/config/config-section.ts';
import type { BillingRunSettings } from './billing-run.ts';

/** The billing module's settings: when the daily run invoices renewals and dunning steps. */
export const billingConfig = defineConfigSection<BillingRunSettings>('billing', (env) => {
  const settings = {
    invoiceDaysBefore: env.int('BILLING_INVOICE_DAYS_BEFORE', 7, 0, 60),
    suspendAfterDays: env.int('BILLING_SUSPEND_AFTER_DAYS', 3, 1, 365),
    terminateAfterDays: env.int('BILLING_TERMINATE_AFTER_DAYS', 14, 1, 365),
  };
  if (settings.terminateAfterDays <= settings.suspendAfterDays)
    env.problem('BILLING_TERMINATE_AFTER_DAYS must be more than BILLING_SUSPEND_AFTER_DAYS');
  return settings;
});
