import { defineConfigSection } from '../../kernel/config/config-section.ts';

/**
 * The Commerce module's settings (docs/configuration.md, "Commerce"): the platform as the seller
 * printed on order documents when it is the merchant of record of a shop's sales.
 */
export interface CommerceSettings {
  readonly platformSeller: {
    readonly legalName: string;
    /** Postal address lines; empty: none printed. */
    readonly address: readonly string[];
    /** VAT identification number; null: none printed. */
    readonly vatId: string | null;
  };
}

export const commerceConfig = defineConfigSection<CommerceSettings>('commerce', (env) => {
  const legalName = env.str('PLATFORM_LEGAL_NAME', 'Hosting Platform').trim();
  if (legalName === '' || legalName.length > 200)
    env.problem('PLATFORM_LEGAL_NAME must be 1 to 200 characters');
  // One variable holds several lines: `;` separates them (`1 Rue Neuve; 1000 Brussels; BE`).
  const address = env
    .orEmpty('PLATFORM_ADDRESS', '')
    .split(';')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (address.length > 6 || address.some((line) => line.length > 200))
    env.problem('PLATFORM_ADDRESS must be at most 6 lines of at most 200 characters, separated by ";"');
  const vat = env.orEmpty('PLATFORM_VAT_ID', '').trim();
  if (vat.length > 40) env.problem('PLATFORM_VAT_ID must be at most 40 characters');
  return { platformSeller: { legalName, address, vatId: vat === '' ? null : vat } };
});
