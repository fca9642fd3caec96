import type { PaymentProviders } from '../../../kernel/payments/create-payment-provider.ts';
import type { PaymentProvider } from '../../../kernel/payments/payment-provider.ts';

/** The payment providers a shop's checkout can use, by the id regions name them with. */
export class ShopPaymentProviders {
  constructor(private readonly providers: PaymentProviders) {}

  /** `manual` always, `stripe` when the deployment has a Stripe key; null for any other id. */
  get(id: string): PaymentProvider | null {
    if (id === 'manual') return this.providers.manual;
    if (id === 'stripe') return this.providers.stripe;
    return null;
  }
}
