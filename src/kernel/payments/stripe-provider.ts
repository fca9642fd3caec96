import type Stripe from 'stripe';
import {
  PaymentProviderError,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  type PaymentRecord,
  type PaymentStatus,
} from './payment-provider.ts';

/**
 * The `stripe` adapter of the payment port, through Stripe's official Node SDK. A charge is one
 * PaymentIntent created and confirmed in the same call (server-side confirmation), sent with the
 * request's idempotency key so a retry after a lost answer is the same PaymentIntent, never a
 * second charge (https://docs.stripe.com/api/idempotent_requests). A card decline is a result; a
 * PaymentIntent that wants the payer to authenticate (3-D Secure) is a decline too, since there is
 * no payer present to take that step. Anything else (no answer, a refused key, an unexpected
 * answer) is a PaymentProviderError naming Stripe and the cause, never the key.
 *
 * An authorization is a PaymentIntent with `capture_method: 'manual'` and card as its only method
 * type (the shopper's page confirms or authenticates with Stripe.js and the client secret), captured
 * or canceled later. Its status is Stripe's, mapped by `paymentStatusOf`.
 */
export interface StripeProviderOptions {
  /** `sk_…` or a restricted `rk_…` key. */
  readonly secretKey: string;
  /** `http(s)://host[:port]` of the API; null: Stripe's own (https://api.stripe.com). */
  readonly apiBaseUrl: string | null;
  /**
   * Retries the SDK makes on a network failure, a 409 or a 5xx (same idempotency key, so safe);
   * the SDK's default is 2.
   */
  readonly maxNetworkRetries?: number;
  /** Per request, milliseconds; the SDK's default is 80 s. */
  readonly timeoutMs?: number;
}

type StripeClient = InstanceType<typeof Stripe>;

/** `host`/`port`/`protocol` of the SDK from a base URL (the SDK takes no URL of its own). */
export function stripeConnectionOptions(apiBaseUrl: string | null): {
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
} {
  if (apiBaseUrl === null) return {};
  const url = new URL(apiBaseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('STRIPE_API_BASE_URL must start with http:// or https://');
  }
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    // An IPv6 literal comes bracketed in a URL; http.request wants it bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port),
    protocol,
  };
}

function describe(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'type' in err && typeof err.type === 'string') {
    const e = err as { type: string; message?: string; statusCode?: number; requestId?: string };
    const status = e.statusCode === undefined ? '' : ` (HTTP ${e.statusCode})`;
    const request = e.requestId === undefined ? '' : `, request ${e.requestId}`;
    return `${e.type}${status}: ${e.message ?? 'no message'}${request}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Stripe's PaymentIntent status as the port names it; a refused method leaves its last error. */
export function paymentStatusOf(intent: Stripe.PaymentIntent): PaymentStatus {
  switch (intent.status) {
    case 'requires_payment_method':
      return intent.last_payment_error == null ? 'requires_payment_method' : 'declined';
    case 'requires_confirmation':
      return 'requires_payment_method';
    case 'requires_action':
      return 'requires_action';
    // A card is never `processing` for long; the money is held either way.
    case 'processing':
    case 'requires_capture':
      return 'authorized';
    case 'succeeded':
      return 'captured';
    case 'canceled':
      return 'canceled';
    default:
      throw new PaymentProviderError(
        'stripe',
        `Stripe answered an unknown PaymentIntent status: ${intent.status}`,
      );
  }
}

export function paymentRecordOf(intent: Stripe.PaymentIntent): PaymentRecord {
  const status = paymentStatusOf(intent);
  const base = {
    reference: intent.id,
    status,
    clientSecret: intent.client_secret,
    amountMinor: intent.amount,
    currency: intent.currency,
  };
  if (status !== 'declined') return base;
  const last = intent.last_payment_error;
  return {
    ...base,
    // Stripe leaves out a field the error has none of (an expired card has no decline_code).
    declineCode: last?.decline_code || last?.code || 'card_declined',
    declineReason: last?.message || 'The card was declined.',
  };
}

/** A card error carrying its PaymentIntent (a decline on confirmation): the declined record. */
function declinedRecord(err: unknown): PaymentRecord | null {
  if (!(err instanceof Error) || (err as { type?: string }).type !== 'StripeCardError') return null;
  const card = err as Stripe.errors.StripeCardError;
  const intent = card.payment_intent;
  if (intent === undefined) return null;
  return {
    ...paymentRecordOf(intent),
    status: 'declined',
    declineCode: card.decline_code || card.code || 'card_declined',
    declineReason: card.message,
  };
}

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  if (!/^(sk|rk)_/.test(options.secretKey)) {
    throw new Error('STRIPE_SECRET_KEY must be a secret (sk_…) or restricted (rk_…) key');
  }
  const connection = stripeConnectionOptions(options.apiBaseUrl);
  let client: Promise<StripeClient> | null = null;
  // The SDK is loaded on first use: processes that never charge (DNS, checkers) don't carry it.
  const stripe = (): Promise<StripeClient> =>
    (client ??= import('stripe').then(
      ({ default: StripeSdk }) =>
        new StripeSdk(options.secretKey, {
          ...connection,
          maxNetworkRetries: options.maxNetworkRetries ?? 2,
          timeout: options.timeoutMs ?? 80_000,
          telemetry: false,
          appInfo: { name: 'hosting-platform' },
        }),
    ));

  // A key in a message would land in logs and problem answers: mask any that slipped in.
  const failure = (action: string, err: unknown): PaymentProviderError =>
    new PaymentProviderError(
      'stripe',
      `Stripe ${action} failed: ${describe(err)}`
        .split(options.secretKey)
        .join('[redacted]')
        .replace(/\b(sk|rk)_(test|live)_[A-Za-z0-9*]+/g, '$1_$2_[redacted]'),
    );

  return {
    gateway: 'stripe',

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      if (request.paymentMethod === null) {
        // Payers are not Stripe customers here, so Stripe has no default method to fall back on.
        return {
          status: 'declined',
          gateway: 'stripe',
          code: 'payment_method_required',
          reason: 'No payment method on file: add a card and try again.',
        };
      }
      const sdk = await stripe();
      let intent: Stripe.PaymentIntent;
      try {
        intent = await sdk.paymentIntents.create(
          {
            amount: request.amountMinor,
            currency: request.currency,
            payment_method: request.paymentMethod,
            // No return URL: a method that would redirect the payer is refused, not left pending.
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            confirm: true,
            description: request.description,
            metadata: { ...request.metadata, payer: request.payer },
          },
          { idempotencyKey: request.idempotencyKey },
        );
      } catch (err) {
        if (err instanceof Error && (err as { type?: string }).type === 'StripeCardError') {
          const card = err as Stripe.errors.StripeCardError;
          return {
            status: 'declined',
            gateway: 'stripe',
            // The SDK gives '' for a field the error left out (an expired card has no decline_code).
            code: card.decline_code || card.code || 'card_declined',
            reason: card.message,
          };
        }
        throw failure('charge', err);
      }
      if (intent.status === 'succeeded') {
        return { status: 'succeeded', gateway: 'stripe', reference: intent.id };
      }
      if (intent.status === 'requires_action') {
        return {
          status: 'declined',
          gateway: 'stripe',
          code: 'authentication_required',
          reason:
            'The card issuer requires the payer to authenticate (3-D Secure), which this payment cannot ask for.',
        };
      }
      return {
        status: 'declined',
        gateway: 'stripe',
        code: `payment_intent_${intent.status}`,
        reason: `Stripe left the payment ${intent.status.replace(/_/g, ' ')} (${intent.id}).`,
      };
    },

    async refund(input) {
      const sdk = await stripe();
      try {
        const refund = await sdk.refunds.create(
          { payment_intent: input.reference, amount: input.amountMinor },
          { idempotencyKey: input.idempotencyKey },
        );
        return { reference: refund.id };
      } catch (err) {
        throw failure('refund', err);
      }
    },

    async authorize(request) {
      const sdk = await stripe();
      const method = request.paymentMethod;
      try {
        const intent = await sdk.paymentIntents.create(
          {
            amount: request.amountMinor,
            currency: request.currency,
            capture_method: 'manual',
            // Card only, so no automatic methods: the shopper's page authenticates in place and
            // nothing redirects away (the SDK's API version names the list `allowed_…`).
            allowed_payment_method_types: ['card'],
            ...(method === null ? {} : { payment_method: method, confirm: true }),
            description: request.description,
            metadata: { ...request.metadata },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return paymentRecordOf(intent);
      } catch (err) {
        const declined = declinedRecord(err);
        if (declined !== null) return declined;
        throw failure('authorize', err);
      }
    },

    async confirm(reference, paymentMethod, idempotencyKey) {
      const sdk = await stripe();
      try {
        const intent = await sdk.paymentIntents.confirm(
          reference,
          { payment_method: paymentMethod },
          { idempotencyKey },
        );
        return paymentRecordOf(intent);
      } catch (err) {
        const declined = declinedRecord(err);
        if (declined !== null) return declined;
        throw failure('confirm', err);
      }
    },

    async retrieve(reference) {
      const sdk = await stripe();
      try {
        return paymentRecordOf(await sdk.paymentIntents.retrieve(reference));
      } catch (err) {
        throw failure('retrieve', err);
      }
    },

    async capture(reference, idempotencyKey) {
      const sdk = await stripe();
      try {
        return paymentRecordOf(await sdk.paymentIntents.capture(reference, {}, { idempotencyKey }));
      } catch (err) {
        // Stripe refuses to capture twice; a retry under another key finds it already captured.
        const now = await settled(sdk, reference, 'captured');
        if (now !== null) return now;
        throw failure('capture', err);
      }
    },

    async cancel(reference) {
      const sdk = await stripe();
      try {
        return paymentRecordOf(await sdk.paymentIntents.cancel(reference));
      } catch (err) {
        const now = await settled(sdk, reference, 'canceled');
        if (now !== null) return now;
        throw failure('cancel', err);
      }
    },
  };
}

/** The intent's record if it already reached `status` (an action repeated), else null. */
async function settled(
  sdk: StripeClient,
  reference: string,
  status: PaymentStatus,
): Promise<PaymentRecord | null> {
  try {
    const record = paymentRecordOf(await sdk.paymentIntents.retrieve(reference));
    return record.status === status ? record : null;
  } catch {
    return null;
  }
}
