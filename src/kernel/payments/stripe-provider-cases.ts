/**
 * The `stripe` adapter's behaviour, written once and run twice: against the local server speaking
 * Stripe's wire format (stripe-provider.test.ts) and against Stripe's test mode
 * (stripe-provider-contract.test.ts), so the local server is held to what Stripe really answers.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import { PaymentProviderError, type ChargeRequest, type PaymentProvider } from './payment-provider.ts';
import { createStripeProvider, stripeConnectionOptions } from './stripe-provider.ts';

export interface StripeTarget {
  readonly secretKey: string;
  readonly apiBaseUrl: string | null;
}

export function stripeProviderCases(target: () => StripeTarget): void {
  // Idempotency keys live 24 hours at Stripe: each run uses keys of its own.
  const run = randomUUID();
  const provider = (): PaymentProvider =>
    createStripeProvider({ ...target(), maxNetworkRetries: 0, timeoutMs: 20_000 });
  const sdk = (): InstanceType<typeof Stripe> =>
    new Stripe(target().secretKey, { ...stripeConnectionOptions(target().apiBaseUrl), maxNetworkRetries: 0 });
  const charge = (name: string, over: Partial<ChargeRequest> = {}): ChargeRequest => ({
    amountMinor: 1250,
    currency: 'usd',
    paymentMethod: 'pm_card_visa',
    payer: 'user:42',
    description: `Invoice ${name}`,
    idempotencyKey: `${run}-${name}`,
    metadata: { invoice_id: `inv-${name}` },
    ...over,
  });

  it('charges a card: one confirmed PaymentIntent carrying the amount, payer and metadata', async () => {
    const result = await provider().charge(charge('visa'));
    expect(result).toMatchObject({ status: 'succeeded', gateway: 'stripe' });
    if (result.status !== 'succeeded') return;
    expect(result.reference).toMatch(/^pi_/);
    const intent = await sdk().paymentIntents.retrieve(result.reference);
    expect(intent).toMatchObject({
      id: result.reference,
      object: 'payment_intent',
      amount: 1250,
      amount_received: 1250,
      currency: 'usd',
      status: 'succeeded',
      description: 'Invoice visa',
      metadata: { invoice_id: 'inv-visa', payer: 'user:42' },
    });
    expect(intent.latest_charge).toMatch(/^ch_/);
  });

  it.each([
    ['pm_card_chargeDeclined', 'generic_decline', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['pm_card_chargeDeclinedLostCard', 'lost_card', 'Your card was declined.'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'Your card has expired.'],
  ])('a declined card (%s) is a decline with its code, not an error', async (pm, code, reason) => {
    const result = await provider().charge(charge(pm, { paymentMethod: pm }));
    expect(result).toEqual({ status: 'declined', gateway: 'stripe', code, reason });
  });

  it.each(['pm_card_authenticationRequired', 'pm_card_threeDSecure2Required'])(
    'a card wanting 3-D Secure (%s) is declined as authentication_required',
    async (pm) => {
      const result = await provider().charge(charge(pm, { paymentMethod: pm }));
      expect(result).toMatchObject({
        status: 'declined',
        gateway: 'stripe',
        code: 'authentication_required',
      });
      if (result.status === 'declined') expect(result.reason).toMatch(/authenticat/);
    },
  );

  it('the same idempotency key twice is one PaymentIntent', async () => {
    const first = await provider().charge(charge('retry'));
    const again = await provider().charge(charge('retry'));
    expect(first.status).toBe('succeeded');
    expect(again).toEqual(first);
  });

  it('the same idempotency key with another amount is refused, not a second charge', async () => {
    await provider().charge(charge('reuse'));
    const err = await provider()
      .charge(charge('reuse', { amountMinor: 999 }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect((err as Error).message).toMatch(/^Stripe charge failed: StripeIdempotencyError \(HTTP 400\)/);
  });

  it('a refused key is a PaymentProviderError naming Stripe, without the key', async () => {
    const wrongKey = `sk_test_${'x'.repeat(20)}wrong${run.slice(0, 8)}`;
    const wrong = createStripeProvider({
      secretKey: wrongKey,
      apiBaseUrl: target().apiBaseUrl,
      maxNetworkRetries: 0,
    });
    const err = await wrong.charge(charge('wrong-key')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    const message = (err as Error).message;
    expect(message).toMatch(/^Stripe charge failed: StripeAuthenticationError \(HTTP 401\)/);
    expect(message).not.toContain(wrongKey);
    expect(message).not.toContain(target().secretKey);
    expect(message).not.toContain(run.slice(0, 8));
  });

  it('refunds part of a charge once per key, and no more than was charged', async () => {
    const paid = await provider().charge(charge('refund'));
    if (paid.status !== 'succeeded') throw new Error('the charge should succeed');
    const input = { reference: paid.reference, amountMinor: 500, idempotencyKey: `${run}-refund-1` };
    const refund = await provider().refund(input);
    expect(refund.reference).toMatch(/^re_/);
    expect(await provider().refund(input)).toEqual(refund);
    const stored = await sdk().refunds.retrieve(refund.reference);
    expect(stored).toMatchObject({
      amount: 500,
      currency: 'usd',
      payment_intent: paid.reference,
      status: 'succeeded',
    });
    const tooMuch = await provider()
      .refund({ reference: paid.reference, amountMinor: 800, idempotencyKey: `${run}-refund-2` })
      .catch((e: unknown) => e);
    expect(tooMuch).toBeInstanceOf(PaymentProviderError);
    expect((tooMuch as Error).message).toMatch(
      /^Stripe refund failed: StripeInvalidRequestError \(HTTP 400\)/,
    );
  });
}
