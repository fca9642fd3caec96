/**
 * The one payment provider port, shared by billing (invoices, credit top-ups) and, later, the shop.
 * Adapters: `manual` (the embedded default: every charge succeeds unless its payment method names a
 * decline, recorded for an operator to reconcile) and `stripe` (the official SDK; a local server
 * speaking Stripe's wire format in tests). Amounts are integer minor units; currencies ISO 4217,
 * lower case as Stripe writes them.
 */
export type PaymentGateway = 'manual' | 'stripe';

export interface ChargeRequest {
  /** Integer minor units (cents), > 0. */
  readonly amountMinor: number;
  /** ISO 4217, lower case (`usd`, `eur`). */
  readonly currency: string;
  /** The payer's saved or tokenised method (`pm_…` at Stripe); null: the provider's default for the payer. */
  readonly paymentMethod: string | null;
  /** Who pays, as the platform names them (`user:42`, `customer:7`): the provider's customer reference. */
  readonly payer: string;
  /** Shown on the payer's statement or receipt. */
  readonly description: string;
  /** The same key twice is one charge (the provider's own idempotency, Stripe's `Idempotency-Key`). */
  readonly idempotencyKey: string;
  /** Echoed back by the provider (invoice id, top-up id). */
  readonly metadata: Readonly<Record<string, string>>;
}

export type ChargeResult =
  | { readonly status: 'succeeded'; readonly gateway: PaymentGateway; readonly reference: string }
  | {
      readonly status: 'declined';
      readonly gateway: PaymentGateway;
      /** Provider's code (`card_declined`, `insufficient_funds`, …). */
      readonly code: string;
      /** Human-readable reason, safe to show the payer. */
      readonly reason: string;
    };

/** A provider that could not be reached or answered something unexpected (not a decline). */
export class PaymentProviderError extends Error {
  constructor(
    readonly gateway: PaymentGateway,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

export interface PaymentProvider {
  readonly gateway: PaymentGateway;
  /** Charges once per idempotency key; a decline is a result, not an error. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Refunds all or part of an earlier charge (its `reference`), once per idempotency key. */
  refund(input: {
    readonly reference: string;
    readonly amountMinor: number;
    readonly idempotencyKey: string;
  }): Promise<{ readonly reference: string }>;
}
