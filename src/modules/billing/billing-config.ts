import { defineConfigSection } from '../../kernel/config/config-section.ts';

/** The billing module's settings: the seller printed on invoice PDFs (docs/billing.md, "Invoice PDF"; docs/configuration.md). */
export interface BillingSettings {
  readonly sellerName: string;
  /** Postal address lines; empty: none printed. */
  readonly sellerAddress: readonly string[];
}

export const billingConfig = defineConfigSection<BillingSettings>('billing', (env) => {
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
  return { sellerName, sellerAddress };
});
