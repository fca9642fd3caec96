import { defineConfigSection } from '../../kernel/config/config-section.ts';
import type { BillingRunSettings } from './billing-run.ts';

/**
 * The billing module's settings (docs/configuration.md, "Billing"): when the daily run invoices
 * renewals and takes dunning steps, and the seller printed on invoice PDFs.
 */
export interface BillingSettings extends BillingRunSettings {
  readonly sellerName: string;
  /** Postal address lines; empty: none printed. */
  readonly sellerAddress: readonly string[];
}

export const billingConfig = defineConfigSection<BillingSettings>('billing', (env) => {
  const invoiceDaysBefore = env.int('BILLING_INVOICE_DAYS_BEFORE', 7, 0, 60);
  const suspendAfterDays = env.int('BILLING_SUSPEND_AFTER_DAYS', 3, 1, 365);
  const terminateAfterDays = env.int('BILLING_TERMINATE_AFTER_DAYS', 14, 1, 365);
  if (terminateAfterDays <= suspendAfterDays)
    env.problem('BILLING_TERMINATE_AFTER_DAYS must be more than BILLING_SUSPEND_AFTER_DAYS');
  const sellerName = env.str('BILLING_SELLER_NAME', 'Hosting Platform').trim();
  if (sellerName === '' || sellerName.length > 200)
    env.problem('BILLING_SELLER_NAME must be 1 to 200 characters');
  // One environment variable holds several lines: `;` separates them (`1 Main St; 1000 Brussels`).
  const sellerAddress = env
    .orEmpty('BILLING_SELLER_ADDRESS', '')
    .split(';')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (sellerAddress.length > 6 || sellerAddress.some((line) => line.length > 200))
    env.problem('BILLING_SELLER_ADDRESS must be at most 6 lines of at most 200 characters, separated by ";"');
  return { invoiceDaysBefore, suspendAfterDays, terminateAfterDays, sellerName, sellerAddress };
});
