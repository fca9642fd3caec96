import type { PaymentProvider } from '../../../kernel/payments/payment-provider.ts';

/** The providers a region may name: `manual` always, `stripe` when the deployment has a Stripe key. */
export type ShopProviderId = 'manual' | 'stripe';

/** The payment providers a shop's checkout can use, by the id regions name them with. */
export class ShopPaymentProviders {
  constructor(private readonly providers: Readonly<Partial<Record<ShopProviderId, PaymentProvider>>>) {}

  /** The provider, or null when the deployment has none of that name. */
  get(id: string): PaymentProvider | null {
    return id === 'manual' || id === 'stripe' ? (this.providers[id] ?? null) : null;
  }
}
