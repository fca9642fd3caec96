import { defineError } from '../../../kernel/errors/error-registry.ts';

/** A refund's (or a cancel's) payment provider that failed: the transaction undoes everything. */
export const paymentProviderFailed = defineError(
  'commerce.payment_provider_failed',
  502,
  (provider: string) => `The payment provider ${provider} refused or failed: nothing was changed`,
);
