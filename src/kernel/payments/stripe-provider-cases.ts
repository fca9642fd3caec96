/**
 * The `stripe` adapter's behaviour, written once and run twice: against the local server speaking
 * Stripe's wire format (stripe-provider.test.ts) and against Stripe's test mode
 * (stripe-provider-contract.test.ts), so the local server is held to what Stripe really answers.
 */
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import {
  PaymentProviderError,
  type AuthorizeRequest,
  type ChargeRequest,
  type PaymentProvider,
} from './payment-provider.ts';
import { createStripeProvider, stripeConnectionOptions } from './stripe-provider.ts';

export interface StripeTarget {
  readonly secretKey: string;
  readonly apiBaseUrl: string | null;
  /**
   * Passes or fails the shopper's 3-D Secure challenge, as their page would with Stripe.js; absent
   * against Stripe itself, where only a browser can.
   */
  readonly completeAuthentication?: (reference: string, outcome: 'passed' | 'failed') => void;
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
  const order = (name: string, over: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
    amountMinor: 3400,
    currency: 'eur',
    paymentMethod: 'pm_card_visa',
    description: `Order ${name}`,
    idempotencyKey: `${run}-order-${name}`,
    metadata: { order_id: `ord-${name}` },
    ...over,
  });
  const key = (name: string): string => `${run}-${name}`;

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

  it('authorizes a card without taking the money, then captures it at order completion', async () => {
    const held = await provider().authorize(order('visa'));
    expect(held).toEqual({
      reference: expect.stringMatching(/^pi_/) as string,
      status: 'authorized',
      clientSecret: expect.stringMatching(/^pi_.+_secret_/) as string,
      amountMinor: 3400,
      currency: 'eur',
    });
    expect(held.clientSecret!.startsWith(`${held.reference}_secret_`)).toBe(true);
    expect(await sdk().paymentIntents.retrieve(held.reference)).toMatchObject({
      status: 'requires_capture',
      capture_method: 'manual',
      amount_capturable: 3400,
      amount_received: 0,
      payment_method_types: ['card'],
      description: 'Order visa',
      metadata: { order_id: 'ord-visa' },
    });
    const captured = await provider().capture(held.reference, key('capture-visa'));
    expect(captured).toEqual({ ...held, status: 'captured' });
    expect(await provider().capture(held.reference, key('capture-visa'))).toEqual(captured);
    // A retry under another key finds it captured rather than failing.
    expect(await provider().capture(held.reference, key('capture-visa-2'))).toEqual(captured);
    expect(await provider().retrieve(held.reference)).toEqual(captured);
    const intent = await sdk().paymentIntents.retrieve(held.reference);
    expect(intent).toMatchObject({ status: 'succeeded', amount_received: 3400, amount_capturable: 0 });
    expect(intent.latest_charge).toMatch(/^ch_/);
  });

  it('a declined card is a declined record the shopper may retry with another card', async () => {
    const declined = await provider().authorize(
      order('declined', { paymentMethod: 'pm_card_chargeDeclined' }),
    );
    expect(declined).toMatchObject({
      reference: expect.stringMatching(/^pi_/) as string,
      status: 'declined',
      amountMinor: 3400,
      currency: 'eur',
      declineCode: 'generic_decline',
      declineReason: 'Your card was declined.',
    });
    expect(await provider().retrieve(declined.reference)).toEqual(declined);
    const retried = await provider().confirm(declined.reference, 'pm_card_visa', key('confirm-declined'));
    expect(retried).toMatchObject({ reference: declined.reference, status: 'authorized' });
    expect(retried.declineCode).toBeUndefined();
    const again = await provider().confirm(declined.reference, 'pm_card_visa', key('confirm-declined'));
    expect(again).toEqual(retried);
    expect(await provider().cancel(declined.reference)).toMatchObject({ status: 'canceled' });
  });

  it('a declined confirmation is a declined record too', async () => {
    const open = await provider().authorize(order('confirm-decline', { paymentMethod: null }));
    const declined = await provider().confirm(
      open.reference,
      'pm_card_chargeDeclinedInsufficientFunds',
      key('confirm-insufficient'),
    );
    expect(declined).toMatchObject({
      reference: open.reference,
      status: 'declined',
      declineCode: 'insufficient_funds',
      declineReason: 'Your card has insufficient funds.',
    });
    await provider().cancel(open.reference);
  });

  it("without a method it waits for the shopper's page, which confirms with the client secret", async () => {
    const open = await provider().authorize(order('open', { paymentMethod: null }));
    expect(open).toMatchObject({ status: 'requires_payment_method', amountMinor: 3400 });
    expect(open.clientSecret).toMatch(/^pi_.+_secret_/);
    expect(await sdk().paymentIntents.retrieve(open.reference)).toMatchObject({
      status: 'requires_payment_method',
      capture_method: 'manual',
      payment_method: null,
      last_payment_error: null,
    });
    const confirmed = await provider().confirm(open.reference, 'pm_card_visa', key('confirm-open'));
    expect(confirmed).toMatchObject({ status: 'authorized' });
    const canceled = await provider().cancel(open.reference);
    expect(canceled).toMatchObject({ reference: open.reference, status: 'canceled' });
    // Canceling twice answers the same.
    expect(await provider().cancel(open.reference)).toEqual(canceled);
    expect(await sdk().paymentIntents.retrieve(open.reference)).toMatchObject({
      status: 'canceled',
      amount_received: 0,
    });
  });

  it('a card wanting 3-D Secure asks for action; once the shopper passes it, the payment is captured', async () => {
    const pending = await provider().authorize(
      order('3ds', { paymentMethod: 'pm_card_authenticationRequired' }),
    );
    expect(pending).toMatchObject({ status: 'requires_action', amountMinor: 3400 });
    expect(pending.clientSecret).toMatch(/^pi_.+_secret_/);
    const intent = await sdk().paymentIntents.retrieve(pending.reference);
    expect(intent.next_action?.type).toBe('use_stripe_sdk');
    const capture = await provider()
      .capture(pending.reference, key('capture-too-early'))
      .catch((e: unknown) => e);
    expect(capture).toBeInstanceOf(PaymentProviderError);
    expect((capture as Error).message).toMatch(
      /^Stripe capture failed: StripeInvalidRequestError \(HTTP 400\)/,
    );
    const complete = target().completeAuthentication;
    if (complete === undefined) {
      expect(await provider().cancel(pending.reference)).toMatchObject({ status: 'canceled' });
      return;
    }
    complete(pending.reference, 'passed');
    expect(await provider().retrieve(pending.reference)).toMatchObject({ status: 'authorized' });
    expect(await provider().capture(pending.reference, key('capture-3ds'))).toMatchObject({
      status: 'captured',
    });
  });

  it('a failed 3-D Secure challenge is a decline', async () => {
    const complete = target().completeAuthentication;
    const pending = await provider().authorize(
      order('3ds-failed', { paymentMethod: 'pm_card_threeDSecure2Required' }),
    );
    expect(pending.status).toBe('requires_action');
    if (complete === undefined) return void (await provider().cancel(pending.reference));
    complete(pending.reference, 'failed');
    expect(await provider().retrieve(pending.reference)).toMatchObject({
      status: 'declined',
      declineCode: 'payment_intent_authentication_failure',
      declineReason: expect.stringMatching(/unable to authenticate/) as string,
    });
  });

  it('the same key twice is one authorization; with another amount it is refused', async () => {
    const first = await provider().authorize(order('same'));
    expect(await provider().authorize(order('same'))).toEqual(first);
    const err = await provider()
      .authorize(order('same', { amountMinor: 999 }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect((err as Error).message).toMatch(/^Stripe authorize failed: StripeIdempotencyError \(HTTP 400\)/);
    await provider().cancel(first.reference);
  });

  it('a captured payment cannot be canceled, and an unknown one is an error', async () => {
    const held = await provider().authorize(order('no-cancel'));
    await provider().capture(held.reference, key('capture-no-cancel'));
    const refused = await provider()
      .cancel(held.reference)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaymentProviderError);
    expect((refused as Error).message).toMatch(
      /^Stripe cancel failed: StripeInvalidRequestError \(HTTP 400\)/,
    );
    const missing = await provider()
      .retrieve('pi_doesNotExist000000000000')
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PaymentProviderError);
    expect((missing as Error).message).toMatch(
      /^Stripe retrieve failed: StripeInvalidRequestError \(HTTP 404\)/,
    );
  });
}
