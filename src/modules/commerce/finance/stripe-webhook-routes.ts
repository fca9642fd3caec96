import { Type } from 'typebox';
import type { Clock } from '../../../kernel/clock.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { DisputesService, ProviderDispute } from './disputes-service.ts';
import { webhookNotConfigured, webhookSignatureInvalid } from './finance-errors.ts';

/** Stripe's tolerance for a signed event's age (https://docs.stripe.com/webhooks#verify-manually). */
export const SIGNATURE_TOLERANCE_S = 300;
/** Stripe's events are small; a dispute's is a few kilobytes. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;
const DISPUTE_EVENTS = new Set(['charge.dispute.created', 'charge.dispute.updated', 'charge.dispute.closed']);

interface StripeEvent {
  readonly id: string;
  readonly type: string;
  readonly data: { readonly object: Record<string, unknown> };
}

/**
 * `POST /api/v1/payments/stripe/webhook` (docs/commerce.md, "Disputes"): Stripe's events, verified
 * on the raw body with `Stripe-Signature` and `STRIPE_WEBHOOK_SECRET` by the official SDK
 * (`webhooks.constructEvent`, the module clock as the time received, 300 s tolerance); a forged or
 * stale signature answers 400 and records nothing. The body is read as text in this route's own
 * scope, so the signature is checked on the bytes Stripe signed.
 */
export function registerStripeWebhookRoute(
  app: ModuleApp,
  secret: string | null,
  clock: Clock,
  disputes: DisputesService,
): void {
  void app.register(async (scope: ModuleApp) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/stripe/webhook',
      {
        schema: {
          description:
            'Stripe’s events (disputes), signed with the endpoint secret (Stripe-Signature); answers 200 once handled.',
          response: { 200: Type.Object({ received: Type.Boolean() }) },
        },
        config: { auth: 'public', audit: false },
      },
      async (request) => {
        if (secret === null) throw webhookNotConfigured();
        const header = request.headers['stripe-signature'];
        const raw = typeof request.body === 'string' ? request.body : '';
        const event = await verified(raw, typeof header === 'string' ? header : '', secret, clock.now());
        if (DISPUTE_EVENTS.has(event.type)) {
          const dispute = disputeOf(event.data.object);
          if (dispute !== null) await disputes.fromProvider('stripe', event.id, dispute);
        }
        return { received: true };
      },
    );
  });
}

async function verified(raw: string, header: string, secret: string, nowMs: number): Promise<StripeEvent> {
  const { default: StripeSdk } = await import('stripe');
  try {
    return StripeSdk.webhooks.constructEvent(
      raw,
      header,
      secret,
      SIGNATURE_TOLERANCE_S,
      undefined,
      nowMs,
    ) as unknown as StripeEvent;
  } catch {
    throw webhookSignatureInvalid();
  }
}

/** The fields of Stripe's dispute object this platform uses; null when they are not there. */
function disputeOf(o: Record<string, unknown>): ProviderDispute | null {
  const pi = o.payment_intent;
  const reference =
    typeof pi === 'string' ? pi : typeof pi === 'object' && pi !== null ? (pi as { id?: unknown }).id : null;
  if (typeof o.id !== 'string' || typeof reference !== 'string') return null;
  if (typeof o.amount !== 'number' || !Number.isSafeInteger(o.amount) || o.amount <= 0) return null;
  if (typeof o.currency !== 'string' || typeof o.status !== 'string') return null;
  const due = (o.evidence_details as { due_by?: unknown } | undefined)?.due_by;
  return {
    id: o.id,
    paymentReference: reference,
    amountMinor: o.amount,
    currency: o.currency,
    reason: typeof o.reason === 'string' ? o.reason : 'general',
    status: o.status,
    evidenceDueBy: typeof due === 'number' ? new Date(due * 1000) : null,
  };
}
