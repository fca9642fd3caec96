import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeServer } from '../../testing/stripe-server.ts';
import { PaymentProviderError, type ChargeRequest } from './payment-provider.ts';
import { stripeProviderCases } from './stripe-provider-cases.ts';
import { createStripeProvider, paymentStatusOf } from './stripe-provider.ts';
import type Stripe from 'stripe';

/**
 * The `stripe` adapter through the official SDK against a local server speaking Stripe's wire
 * format; the same cases run against Stripe's test mode in stripe-provider-contract.test.ts.
 */
let server: StripeServer;
beforeAll(async () => {
  server = await startStripeServer();
});
afterAll(async () => {
  await server.close();
});

const request: ChargeRequest = {
  amountMinor: 2000,
  currency: 'eur',
  paymentMethod: 'pm_card_visa',
  payer: 'customer:7',
  description: 'Credit top-up',
  idempotencyKey: 'topup-7-1',
  metadata: { topup_id: '7-1', invoice_id: 'inv-9' },
};

describe('stripe adapter against the local Stripe server', () => {
  stripeProviderCases(() => ({
    secretKey: server.secretKey,
    apiBaseUrl: server.url,
    completeAuthentication: (reference, outcome) => server.completeAuthentication(reference, outcome),
  }));
});

describe('what the stripe adapter sends', () => {
  it('one form-encoded, Bearer-authenticated, idempotent creation confirmed in the same call', async () => {
    const provider = createStripeProvider({ secretKey: server.secretKey, apiBaseUrl: server.url });
    const before = server.requests.length;
    const first = await provider.charge(request);
    const retry = await provider.charge(request);
    expect(retry).toEqual(first);
    const sent = server.requests.slice(before);
    expect(sent.map((r) => [r.method, r.path, r.status, r.replayed])).toEqual([
      ['POST', '/v1/payment_intents', 200, false],
      ['POST', '/v1/payment_intents', 200, true],
    ]);
    const created = [...server.paymentIntents.values()].filter((pi) => pi.description === 'Credit top-up');
    expect(created).toHaveLength(1);
    const [one] = sent;
    expect(one!.headers.authorization).toBe(`Bearer ${server.secretKey}`);
    expect(one!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(one!.headers['idempotency-key']).toBe('topup-7-1');
    expect(one!.body).toContain('metadata[topup_id]=7-1');
    expect(one!.params).toEqual({
      amount: '2000',
      currency: 'eur',
      payment_method: 'pm_card_visa',
      automatic_payment_methods: { enabled: 'true', allow_redirects: 'never' },
      confirm: 'true',
      description: 'Credit top-up',
      metadata: { topup_id: '7-1', invoice_id: 'inv-9', payer: 'customer:7' },
    });
  });

  it('a server that does not answer is a PaymentProviderError naming Stripe and the cause', async () => {
    const down = await startStripeServer();
    const url = down.url;
    await down.close();
    const provider = createStripeProvider({
      secretKey: server.secretKey,
      apiBaseUrl: url,
      maxNetworkRetries: 0,
    });
    const err = await provider.charge({ ...request, idempotencyKey: 'down-1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect((err as PaymentProviderError).gateway).toBe('stripe');
    expect((err as Error).message).toMatch(/^Stripe charge failed: StripeConnectionError: /);
    expect((err as Error).message).not.toContain(server.secretKey);
  });

  it('a charge with no payment method is declined without asking Stripe', async () => {
    const provider = createStripeProvider({ secretKey: server.secretKey, apiBaseUrl: server.url });
    const before = server.requests.length;
    const result = await provider.charge({ ...request, paymentMethod: null, idempotencyKey: 'none-1' });
    expect(result).toMatchObject({ status: 'declined', code: 'payment_method_required' });
    expect(server.requests.length).toBe(before);
  });

  it('maps STRIPE_API_BASE_URL onto the SDK host, port and protocol, and refuses a non-secret key', () => {
    expect(() => createStripeProvider({ secretKey: 'pk_test_abc', apiBaseUrl: null })).toThrow(/sk_/);
    expect(() => createStripeProvider({ secretKey: 'sk_test_abc', apiBaseUrl: 'ftp://x' })).toThrow(/http/);
  });
});

describe('what the stripe adapter sends to authorize, capture and cancel', () => {
  it('a manual-capture, card-only PaymentIntent confirmed at once, then its capture and cancel paths', async () => {
    const provider = createStripeProvider({ secretKey: server.secretKey, apiBaseUrl: server.url });
    const before = server.requests.length;
    const held = await provider.authorize({
      amountMinor: 4200,
      currency: 'usd',
      paymentMethod: 'pm_card_visa',
      idempotencyKey: 'order-42-authorize',
      metadata: { order_id: '42' },
      description: 'Order #42',
    });
    expect(held.status).toBe('authorized');
    await provider.capture(held.reference, 'order-42-capture');
    const open = await provider.authorize({
      amountMinor: 900,
      currency: 'usd',
      paymentMethod: null,
      idempotencyKey: 'order-43-authorize',
      metadata: { order_id: '43' },
      description: 'Order #43',
    });
    await provider.cancel(open.reference);
    const sent = server.requests.slice(before);
    expect(sent.map((r) => [r.method, r.path, r.status, r.headers['idempotency-key']])).toEqual([
      ['POST', '/v1/payment_intents', 200, 'order-42-authorize'],
      ['POST', `/v1/payment_intents/${held.reference}/capture`, 200, 'order-42-capture'],
      ['POST', '/v1/payment_intents', 200, 'order-43-authorize'],
      // The SDK makes its own key for a retryable call given none.
      [
        'POST',
        `/v1/payment_intents/${open.reference}/cancel`,
        200,
        expect.stringMatching(/^stripe-node-retry-/),
      ],
    ]);
    expect(sent[0]!.params).toEqual({
      amount: '4200',
      currency: 'usd',
      capture_method: 'manual',
      allowed_payment_method_types: ['card'],
      payment_method: 'pm_card_visa',
      confirm: 'true',
      description: 'Order #42',
      metadata: { order_id: '42' },
    });
    expect(sent[2]!.params).not.toHaveProperty('confirm');
    expect(sent[2]!.params).not.toHaveProperty('payment_method');
    const statuses = server.intentStatuses();
    expect(statuses.find((pi) => pi.id === held.reference)).toMatchObject({
      status: 'succeeded',
      amountReceived: 4200,
    });
    expect(statuses.find((pi) => pi.id === open.reference)).toMatchObject({
      status: 'canceled',
      amountReceived: 0,
    });
  });

  it("maps each of Stripe's statuses onto the port's", () => {
    const of = (status: string, last: object | null = null): string =>
      paymentStatusOf({ status, last_payment_error: last } as unknown as Stripe.PaymentIntent);
    expect(of('requires_payment_method')).toBe('requires_payment_method');
    expect(of('requires_payment_method', { code: 'card_declined' })).toBe('declined');
    expect(of('requires_confirmation')).toBe('requires_payment_method');
    expect(of('requires_action')).toBe('requires_action');
    expect(of('processing')).toBe('authorized');
    expect(of('requires_capture')).toBe('authorized');
    expect(of('succeeded')).toBe('captured');
    expect(of('canceled')).toBe('canceled');
    expect(() => of('something_new')).toThrow(PaymentProviderError);
  });
});
