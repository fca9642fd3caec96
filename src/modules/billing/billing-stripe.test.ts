/**
 * Billing with STRIPE_SECRET_KEY set: the deployment's provider is the Stripe adapter, talking to a
 * local server that speaks Stripe's wire format. A card payment is one confirmed PaymentIntent for
 * the invoice's amount in minor units; a declined card answers 402 with Stripe's message and
 * changes nothing; a retried payment under one Idempotency-Key is one PaymentIntent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeServer, type StripeServer } from '../../testing/stripe-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const DNS_PRO = { product_id: 2, pricing_id: 2 };
const B = '/api/v1/billing';

describe('billing through the Stripe adapter', () => {
  let stripe: StripeServer;
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({
      env: { ROLE: 'api', STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: stripe.url },
    });
    token = (await t.signUp()).token;
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  const intentsCreated = () =>
    stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && !r.replayed);

  it('pays an invoice by card at Stripe; a declined card changes nothing; a retry is one charge', async () => {
    const ordered = await t.request('POST', '/api/v1/services/order', { token, body: DNS_PRO });
    expect(ordered.status, ordered.text).toBe(201);
    const id = ordered.body.invoice_id as number;

    const declined = await t.request('POST', `${B}/invoices/${id}/pay`, {
      token,
      body: { method: 'card', payment_method: 'pm_card_chargeDeclined' },
    });
    expect([declined.status, declined.body]).toEqual([402, { detail: 'Your card was declined.' }]);
    expect((await t.request('GET', `${B}/invoices/${id}`, { token })).body).toMatchObject({
      status: 'unpaid',
      amount_paid: 0,
    });
    expect((await t.request('GET', `${B}/transactions`, { token })).body).toEqual([]);

    const pay = () =>
      t.request('POST', `${B}/invoices/${id}/pay`, {
        token,
        body: { method: 'card', payment_method: 'pm_card_visa' },
        headers: { 'idempotency-key': 'stripe-pay-1' },
      });
    const paid = await pay();
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', amount_paid: 4 });
    expect((await pay()).body).toEqual(paid.body);

    const created = intentsCreated();
    expect(created).toHaveLength(2); // the declined attempt and the paid one
    expect(created[1]!.params).toMatchObject({
      amount: '400',
      currency: 'eur',
      payment_method: 'pm_card_visa',
      confirm: 'true',
    });
    const succeeded = [...stripe.paymentIntents.values()].filter((pi) => pi.status === 'succeeded');
    expect(succeeded).toHaveLength(1);
    expect((await t.request('GET', `${B}/transactions`, { token })).body).toEqual([
      expect.objectContaining({ type: 'payment', amount: 4, invoice_id: id, gateway: 'stripe' }),
    ]);
    const service = await t.request('GET', `/api/v1/services/${ordered.body.id as number}`, { token });
    expect(service.body.status).toBe('active');
  });
});
