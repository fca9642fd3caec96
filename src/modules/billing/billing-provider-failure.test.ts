/**
 * A payment provider that cannot be reached (PaymentProviderError, not a decline): the payment
 * answers 503 with Retry-After and nothing changes — the invoice stays unpaid, no ledger row, the
 * service pending. The invoice is made over HTTP by the running app; the service under test uses
 * the same database with a provider that fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../kernel/errors/app-error.ts';
import { PaymentProviderError, type PaymentProvider } from '../../kernel/payments/payment-provider.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { billingContext } from './billing-context.ts';
import { BillingService } from './billing-service.ts';

const unreachable: PaymentProvider = {
  gateway: 'stripe',
  charge: () => Promise.reject(new PaymentProviderError('stripe', 'connect ECONNREFUSED')),
  refund: () => Promise.reject(new PaymentProviderError('stripe', 'connect ECONNREFUSED')),
  authorize: () => Promise.reject(new PaymentProviderError('stripe', 'connect ECONNREFUSED')),
  confirm: () => Promise.reject(new PaymentProviderError('stripe', 'connect ECONNREFUSED')),
  retrieve: () => Promise.reject(new PaymentProviderError('stripe', 'connect ECONNREFUSED')),
  capture: () => Promise.reject(new PaymentProviderError('stripe', 'connect ECONNREFUSED')),
  cancel: () => Promise.reject(new PaymentProviderError('stripe', 'connect ECONNREFUSED')),
};

describe('billing with an unreachable payment provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(async () => t?.close());

  it('answers 503 and changes nothing', async () => {
    const { token } = await t.signUp();
    const ordered = await t.request('POST', '/api/v1/services/order', {
      token,
      body: { product_id: 2, pricing_id: 2 },
    });
    expect(ordered.status, ordered.text).toBe(201);
    const me = (await t.request('GET', '/api/v1/auth/me', { token })).body as { id: number };
    const provisioned: number[][] = [];
    const billing = new BillingService(billingContext(t.node.runtime), unreachable, {
      provisionPaid: async (ids) => void provisioned.push([...ids]),
    });
    const owner = { userId: me.id, orgRoles: new Map() };
    const failed = await billing
      .pay(owner, ordered.body.invoice_id, { method: 'card' }, undefined)
      .catch((e) => e);
    expect(failed).toBeInstanceOf(AppError);
    expect([failed.status, failed.code, failed.headers]).toEqual([
      503,
      'billing.provider_unavailable',
      { 'Retry-After': '5' },
    ]);
    const topUp = await billing.topUp(owner, { amount: '5' }, undefined).catch((e) => e);
    expect(topUp.status).toBe(503);
    expect(provisioned).toEqual([]);
    const invoice = await t.request('GET', `/api/v1/billing/invoices/${ordered.body.invoice_id}`, { token });
    expect(invoice.body).toMatchObject({ status: 'unpaid', amount_paid: 0 });
    expect((await t.request('GET', '/api/v1/billing/transactions', { token })).body).toEqual([]);
    expect((await t.request('GET', `/api/v1/services/${ordered.body.id}`, { token })).body.status).toBe(
      'pending',
    );
  });
});
