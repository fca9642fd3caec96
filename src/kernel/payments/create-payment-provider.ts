import { ManualPaymentProvider } from './manual-provider.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { createStripeDisputes, type DisputeDesk } from './stripe-disputes.ts';
import { createStripeProvider } from './stripe-provider.ts';

export interface PaymentProviderSettings {
  /** `STRIPE_SECRET_KEY`: with it, charges go to Stripe; without it, to the manual adapter. */
  readonly stripeSecretKey?: string | null;
  /** `STRIPE_API_BASE_URL`: another host speaking Stripe's API (a local server in tests). */
  readonly stripeApiBaseUrl?: string | null;
  /** Source of the manual adapter's references (tests pass a counter). */
  readonly random?: () => string;
}

/**
 * The deployment's payment provider. This is the one place an adapter is chosen: `stripe` when a
 * Stripe key is set, otherwise `manual` (the embedded default).
 */
export function createPaymentProvider(settings: PaymentProviderSettings = {}): PaymentProvider {
  if (settings.stripeSecretKey != null) {
    return createStripeProvider({
      secretKey: settings.stripeSecretKey,
      apiBaseUrl: settings.stripeApiBaseUrl ?? null,
    });
  }
  return new ManualPaymentProvider(settings.random);
}

/** Every adapter the deployment can pay through, by name: what a shop's regions choose among. */
export interface PaymentProviders {
  /** Pay later (bank transfer): always there. */
  readonly manual: PaymentProvider;
  /** Stripe, when a Stripe key is set. */
  readonly stripe: PaymentProvider | null;
  /** Stripe's disputes (evidence, accepting), when a Stripe key is set. */
  readonly stripeDisputes?: DisputeDesk | null;
}

/** The shop's adapters (a region names `manual`, `stripe` or both): the same settings as above. */
export function createPaymentProviders(settings: PaymentProviderSettings = {}): PaymentProviders {
  return {
    manual: new ManualPaymentProvider(settings.random),
    stripe:
      settings.stripeSecretKey == null
        ? null
        : createStripeProvider({
            secretKey: settings.stripeSecretKey,
            apiBaseUrl: settings.stripeApiBaseUrl ?? null,
          }),
    stripeDisputes:
      settings.stripeSecretKey == null
        ? null
        : createStripeDisputes({
            secretKey: settings.stripeSecretKey,
            apiBaseUrl: settings.stripeApiBaseUrl ?? null,
          }),
  };
}
