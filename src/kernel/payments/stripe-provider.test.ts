import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeServer } from '../../testing/stripe-server.ts';
import { PaymentProviderError, type ChargeRequest } from './payment-provider.ts';
import { stripeProviderCases } from './stripe-provider-cases.ts';
import { createStripeProvider } from './stripe-provider.ts';

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
