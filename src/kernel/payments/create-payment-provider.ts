import { ManualPaymentProvider } from './manual-provider.ts';
import type { PaymentProvider } from './payment-provider.ts';

export interface PaymentProviderSettings {
  /** Source of the manual adapter's references (tests pass a counter). */
  readonly random?: () => string;
}

/**
 * The deployment's payment provider. This is the one place an adapter is chosen: `manual` (the
 * embedded default) unless a provider's settings name another.
 */
export function createPaymentProvider(settings: PaymentProviderSettings = {}): PaymentProvider {
  return new ManualPaymentProvider(settings.random);
}
