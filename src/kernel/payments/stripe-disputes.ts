import type Stripe from 'stripe';
import { PaymentProviderError } from './payment-provider.ts';
import { stripeConnectionOptions, type StripeProviderOptions } from './stripe-provider.ts';

/**
 * A card payment's dispute at its provider (a chargeback the cardholder's bank opened): the
 * merchant answers it with evidence, submitted once, or accepts it
 * (https://docs.stripe.com/api/disputes/update, https://docs.stripe.com/api/disputes/close).
 */
export interface DisputeDesk {
  /** Saves the evidence at the provider and submits it to the bank (Stripe: `submit=true`). */
  submit(
    disputeId: string,
    evidence: Readonly<Record<string, string>>,
    idempotencyKey: string,
  ): Promise<void>;
  /** Accepts the dispute: the disputed amount is lost (Stripe: close). */
  accept(disputeId: string, idempotencyKey: string): Promise<void>;
}

/** The Stripe dispute desk, through the official SDK, loaded on first use. */
export function createStripeDisputes(options: StripeProviderOptions): DisputeDesk {
  let client: Promise<InstanceType<typeof Stripe>> | null = null;
  const stripe = () =>
    (client ??= import('stripe').then(
      ({ default: StripeSdk }) =>
        new StripeSdk(options.secretKey, {
          ...stripeConnectionOptions(options.apiBaseUrl),
          maxNetworkRetries: options.maxNetworkRetries ?? 2,
          timeout: options.timeoutMs ?? 80_000,
          telemetry: false,
          appInfo: { name: 'hosting-platform' },
        }),
    ));
  const failure = (action: string, err: unknown): PaymentProviderError =>
    new PaymentProviderError(
      'stripe',
      `Stripe dispute ${action} failed: ${err instanceof Error ? err.message : String(err)}`.replace(
        /\b(sk|rk)_(test|live)_[A-Za-z0-9*]+/g,
        '$1_$2_[redacted]',
      ),
    );
  return {
    async submit(disputeId, evidence, idempotencyKey) {
      const sdk = await stripe();
      try {
        await sdk.disputes.update(disputeId, { evidence: { ...evidence }, submit: true }, { idempotencyKey });
      } catch (err) {
        throw failure('submit', err);
      }
    },
    async accept(disputeId, idempotencyKey) {
      const sdk = await stripe();
      try {
        await sdk.disputes.close(disputeId, {}, { idempotencyKey });
      } catch (err) {
        throw failure('close', err);
      }
    },
  };
}
