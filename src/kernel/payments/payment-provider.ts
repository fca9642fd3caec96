/**
 * The one payment provider port, shared by billing (invoices, credit top-ups) and the shop's
 * checkout. Billing charges in one step (`charge`, `refund`); a checkout authorizes first, lets the
 * shopper's page complete 3-D Secure with the client secret, and captures when the order completes
 * (`authorize`, `confirm`, `retrieve`, `capture`, `cancel`). Adapters: `manual` (the embedded default: every charge succeeds unless its payment method names a
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

export interface AuthorizeRequest {
  /** Integer minor units (cents), > 0. */
  readonly amountMinor: number;
  /** ISO 4217, lower case (`usd`, `eur`). */
  readonly currency: string;
  /**
   * The shopper's method (`pm_…` at Stripe), confirmed server-side at once; null: none yet, the
   * shopper's page confirms with the record's client secret.
   */
  readonly paymentMethod: string | null;
  /** The same key twice is one authorization. */
  readonly idempotencyKey: string;
  /** Echoed back by the provider (order id, cart id). */
  readonly metadata: Readonly<Record<string, string>>;
  /** Shown on the shopper's statement or receipt. */
  readonly description: string;
}

/**
 * Where an authorized payment stands:
 * - `requires_payment_method`: no method yet; the shopper's page confirms with the client secret;
 * - `requires_action`: the issuer wants the shopper to authenticate (3-D Secure) on their page;
 * - `authorized`: the money is held, waiting for `capture` (or `cancel` to release it);
 * - `declined`: the method was refused (`declineCode`, `declineReason`); another may be confirmed;
 * - `captured`: the money is taken;
 * - `canceled`: released, nothing taken.
 */
export type PaymentStatus =
  'requires_payment_method' | 'requires_action' | 'authorized' | 'declined' | 'captured' | 'canceled';

export interface PaymentRecord {
  /** The provider's id of the payment (`pi_…` at Stripe, `manual_pi_…` for the manual adapter). */
  readonly reference: string;
  readonly status: PaymentStatus;
  /** For the shopper's page to confirm or authenticate (Stripe.js); null when the provider has none. */
  readonly clientSecret: string | null;
  readonly amountMinor: number;
  readonly currency: string;
  /** With `declined`: the provider's code (`generic_decline`, `insufficient_funds`, …). */
  readonly declineCode?: string;
  /** With `declined`: a human-readable reason, safe to show the shopper. */
  readonly declineReason?: string;
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
  /**
   * Authorizes without taking the money (Stripe: a PaymentIntent with manual capture), once per
   * idempotency key; a decline is a result, not an error.
   */
  authorize(request: AuthorizeRequest): Promise<PaymentRecord>;
  /** Confirms an authorization server-side with a method (after a decline, or one created without). */
  confirm(reference: string, paymentMethod: string, idempotencyKey: string): Promise<PaymentRecord>;
  /** Where the payment stands now (after the shopper's page authenticated, for instance). */
  retrieve(reference: string): Promise<PaymentRecord>;
  /** Takes the authorized money, once per idempotency key; an already captured one answers as is. */
  capture(reference: string, idempotencyKey: string): Promise<PaymentRecord>;
  /** Releases an authorization that was not captured; an already canceled one answers as is. */
  cancel(reference: string): Promise<PaymentRecord>;
}
