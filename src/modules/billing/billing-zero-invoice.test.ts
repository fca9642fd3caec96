/**
 * An invoice of 0 (a coupon took all of it off) is paid without asking the payment provider for
 * 0 — by card or by the daily run, in any currency — with no ledger row, an `invoice.paid` event
 * whose gateway is `none`, and its services provisioned. The provider here fails every call, so a
 * call to it would fail the payment.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { PaymentProviderError, type PaymentProvider } from '../../kernel/payments/payment-provider.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { billingContext } from './billing-context.ts';
import { BillingService, NOTHING_CHARGED } from './billing-service.ts';

const fail = (): Promise<never> => Promise.reject(new PaymentProviderError('stripe', 'must not be called'));
const refusing: PaymentProvider = {
  gateway: 'stripe',
  charge: fail,
  refund: fail,
  authorize: fail,
  confirm: fail,
  retrieve: fail,
  capture: fail,
  cancel: fail,
};

describe('invoices of 0', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(async () => t?.close());

  /** An order whose invoice is then made 0 in `currency`, as a coupon of its whole price leaves it. */
  async function zeroInvoice(
    token: string,
    currency: string,
  ): Promise<{ invoiceId: number; serviceId: number }> {
    const ordered = await t.request('POST', '/api/v1/services/order', {
      token,
      body: { product_id: 2, pricing_id: 2 },
    });
    expect(ordered.status, ordered.text).toBe(201);
    const invoiceId = ordered.body.invoice_id as number;
    await sql`UPDATE billing_invoices SET subtotal_minor = 0, total_minor = 0, currency = ${currency}
      WHERE id = ${invoiceId}`.execute(tablesOf(t.node.runtime));
    return { invoiceId, serviceId: ordered.body.id as number };
  }

  it('pays by card without a charge, and the daily run pays one in a currency other than credit', async () => {
    const { token } = await t.signUp();
    const me = (await t.request('GET', '/api/v1/auth/me', { token })).body as { id: number };
    const provisioned: number[] = [];
    const billing = new BillingService(billingContext(t.node.runtime), refusing, {
      provisionPaid: async (ids) => void provisioned.push(...ids),
    });
    const owner = { userId: me.id, orgRoles: new Map() };

    const byCard = await zeroInvoice(token, 'EUR');
    await billing.pay(owner, byCard.invoiceId, { method: 'card' }, undefined);
    const paid = await t.request('GET', `/api/v1/billing/invoices/${byCard.invoiceId}`, { token });
    expect(paid.body).toMatchObject({ status: 'paid', total: 0 });
    expect(provisioned).toContain(byCard.serviceId);

    const inUsd = await zeroInvoice(token, 'USD');
    expect(await billing.payFromCreditIfCovered(inUsd.invoiceId)).toBe(true);
    const usd = await t.request('GET', `/api/v1/billing/invoices/${inUsd.invoiceId}`, { token });
    expect(usd.body).toMatchObject({ status: 'paid', currency: 'USD' });
    // Paid already: a second run leaves it.
    expect(await billing.payFromCreditIfCovered(inUsd.invoiceId)).toBe(false);

    // No money moved: no ledger row; the events say nothing was charged.
    expect((await t.request('GET', '/api/v1/billing/transactions', { token })).body).toEqual([]);
    const events = await sql<{ data: { invoice_id: number; gateway: string } }>`
      SELECT payload AS data FROM events WHERE name = 'invoice.paid'`.execute(tablesOf(t.node.runtime));
    const ours = events.rows
      .map((r) => r.data)
      .filter((d) => [byCard.invoiceId, inUsd.invoiceId].includes(d.invoice_id));
    expect(ours.map((d) => d.gateway)).toEqual([NOTHING_CHARGED, NOTHING_CHARGED]);
  });
});
